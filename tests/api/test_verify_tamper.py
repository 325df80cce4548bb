"""The offline verifier catches tampered exports, naming the event.

Each case edits a real finished game's export.  "Forged" variants also
recompute the whole hash chain (an attacker with database access can do
that), so only the rules replay can catch them.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from events.integrity.envelope import GENESIS_HASH, event_hash
from events.integrity.keyset import KeySet
from events.integrity.verify import verify_export
from tests.api.conftest import create, finish_setup, play_to_end

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def export(client: FlaskClient) -> dict[str, Any]:
    game = create(client, players=3, seed="tamper")
    finish_setup(client, game)
    play_to_end(client, game)
    resp = client.get(f"/v1/games/{game['id']}/export")
    assert resp.status_code == 200
    data: dict[str, Any] = resp.get_json()
    return data


def rechain(export: dict[str, Any]) -> dict[str, Any]:
    """Recompute seq, prev_hash and hash of every event, as a forger would."""
    prev = GENESIS_HASH
    for i, e in enumerate(export["events"], 1):
        e["seq"] = i
        e["prev_hash"] = prev
        e["hash"] = event_hash(game_id=e["game_id"], seq=i, type=e["type"], schema_version=e["schema_version"],
                               payload=e["payload"], recorded_at=e["recorded_at"], seat=e["seat"],
                               idempotency_key=e["idempotency_key"], prev_hash=prev)
        prev = e["hash"]
    export["game"]["version"] = len(export["events"])
    export["chain"] = {"length": len(export["events"]), "head": prev}
    return export


def failed(export: dict[str, Any]) -> dict[str, str]:
    verdict = verify_export(export)
    assert verdict.failed
    return {c.name: c.detail for c in verdict.checks if not c.ok}


def first_index(export: dict[str, Any], etype: str, **match: Any) -> int:
    for i, e in enumerate(export["events"]):
        if e["type"] == etype and all(e["payload"].get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {etype} event")


def test_untouched_export_is_valid(export: dict[str, Any], client: FlaskClient) -> None:
    verdict = verify_export(export, KeySet.from_json(client.get("/v1/keys").get_json()))
    assert verdict.ok, verdict.to_json()
    assert [c.name for c in verdict.checks] == ["chain", "signatures", "seed", "setup", "moves", "result"]


def test_edited_card_breaks_the_chain(export: dict[str, Any]) -> None:
    i = first_index(export, "card_drawn", source="deck")
    e = export["events"][i]
    e["payload"]["card"] = "ferry" if e["payload"]["card"] != "ferry" else "red"
    assert f"seq {e['seq']}" in failed(export)["chain"]


def test_forged_card_is_caught_by_the_rules(export: dict[str, Any]) -> None:
    i = first_index(export, "card_drawn", source="deck")
    e = export["events"][i]
    e["payload"]["card"] = "ferry" if e["payload"]["card"] != "ferry" else "red"
    problems = failed(rechain(export))
    assert "chain" not in problems
    assert f"event seq {e['seq']} (card_drawn)" in problems["moves"]
    assert "card" in problems["moves"]


def test_swapped_events(export: dict[str, Any]) -> None:
    i = first_index(export, "route_claimed")
    events = export["events"]
    events[i], events[i - 1] = events[i - 1], events[i]
    assert "chain" in failed(copy.deepcopy(export))
    problems = failed(rechain(export))
    assert "moves" in problems and "event seq" in problems["moves"]


def test_removed_event(export: dict[str, Any]) -> None:
    i = first_index(export, "card_drawn")
    seq = export["events"][i]["seq"]
    del export["events"][i]
    assert f"seq {seq}" in failed(copy.deepcopy(export))["chain"]
    problems = failed(rechain(export))
    assert "moves" in problems


def test_removed_tail_event(export: dict[str, Any]) -> None:
    export["events"].pop()
    assert "chain" in failed(copy.deepcopy(export))
    problems = failed(rechain(export))
    assert "the record ends inside this move" in problems["moves"]


def test_changed_seed(export: dict[str, Any]) -> None:
    export["seed"]["value"] = "another seed"
    assert "commitment" in failed(export)["seed"]


def test_changed_seed_and_commitment_still_fails_setup(export: dict[str, Any]) -> None:
    import hashlib

    export["seed"]["value"] = "another seed"
    export["seed"]["commitment"] = hashlib.sha256(f"{export['seed']['salt']}:another seed".encode()).hexdigest()
    problems = failed(export)
    assert "seed" not in problems
    assert "event seq 1 (game_set_up)" in problems["setup"]


def test_changed_score(export: dict[str, Any]) -> None:
    export["result"]["players"][0]["total"] += 5
    assert "players" in failed(export)["result"]


def test_changed_score_in_the_last_event(export: dict[str, Any]) -> None:
    e = export["events"][-1]
    assert e["type"] == "game_ended"
    e["payload"]["totals"] = [t + 1 for t in e["payload"]["totals"]]
    problems = failed(rechain(export))
    assert f"event seq {e['seq']} (game_ended)" in problems["moves"] and "totals" in problems["moves"]


def test_move_by_the_wrong_seat(export: dict[str, Any]) -> None:
    i = first_index(export, "route_claimed")
    e = export["events"][i]
    e["payload"]["seat"] = (e["payload"]["seat"] + 1) % 3
    e["seat"] = e["payload"]["seat"]
    problems = failed(rechain(export))
    assert f"event seq {e['seq']} (route_claimed)" in problems["moves"]


def test_cli_verdicts(export: dict[str, Any], tmp_path: Path, client: FlaskClient) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(export))
    out = subprocess.run([sys.executable, "-m", "cablecar.cli", "verify", str(good)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "is NOT VERIFIED: signatures NOT CHECKED" in out.stdout  # nothing wrong, but no keys given
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(client.get("/v1/keys").get_json()))
    out = subprocess.run([sys.executable, "-m", "cablecar.cli", "verify", "--keys", str(keys), str(good)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "is VALID" in out.stdout, out.stdout + out.stderr
    export["result"]["winners"] = [9]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(export))
    out = subprocess.run([sys.executable, "-m", "cablecar.cli", "verify", str(bad)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "NOT VALID" in out.stdout and "result" in out.stdout
    junk = tmp_path / "junk.json"
    junk.write_text("not json")
    out = subprocess.run([sys.executable, "-m", "cablecar.cli", "verify", str(junk)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2


def test_ndjson_export_verifies(client: FlaskClient, tmp_path: Path) -> None:
    game = create(client, players=2, seed="ndjson")
    finish_setup(client, game)
    play_to_end(client, game)
    resp = client.get(f"/v1/games/{game['id']}/export", headers={"Accept": "application/x-ndjson"})
    assert resp.status_code == 200 and resp.mimetype == "application/x-ndjson"
    lines = resp.get_data(as_text=True).strip().splitlines()
    assert json.loads(lines[0])["kind"] == "header"
    assert all(json.loads(line)["kind"] == "event" for line in lines[1:])
    path = tmp_path / "game.ndjson"
    path.write_text(resp.get_data(as_text=True))
    out = subprocess.run([sys.executable, "-m", "cablecar.cli", "verify", "--json", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    verdict = json.loads(out.stdout)
    assert verdict["ok"] is False  # the signatures were not checked: not verified, though nothing failed
    assert [c["name"] for c in verdict["checks"] if not c["ok"]] == ["signatures"]
    assert [c["name"] for c in verdict["checks"] if not c["checked"]] == ["signatures"]


def test_audit_of_a_game_in_progress_reveals_nothing(client: FlaskClient) -> None:
    game = create(client, players=2, seed="audit-secret")
    finish_setup(client, game)
    audit = client.get(f"/v1/games/{game['id']}/audit")
    assert audit.status_code == 200
    body = audit.get_json()
    assert body["ok"] is True
    assert "audit-secret" not in audit.get_data(as_text=True)


@pytest.mark.parametrize("where,value,says", [
    (("events", 3, "seq"), "4", "events[3].seq: expected an integer, got a string"),
    (("events", 0, "payload"), [1], "events[0].payload: expected an object, got a list"),
    (("events", 2, "seat"), True, "events[2].seat: expected an integer or null, got a boolean"),
    (("game", "version"), "12", "game.version: expected an integer, got a string"),
    (("game", "start_seat"), None, "game.start_seat: expected an integer, got null"),
    (("seed", "salt"), 7, "seed.salt: expected a string or null, got an integer"),
    (("game", "players", 0), {"name": "Ada"}, "game.players[0]: expected a string, got an object"),
])
def test_a_mistyped_field_is_named_with_its_expected_type(
    export: dict[str, Any], tmp_path: Path, where: tuple[Any, ...], value: Any, says: str
) -> None:
    """Issue 25: `cablecar verify` answered a mistyped field with a raw Python
    error ("'<' not supported between instances of 'int' and 'str'")."""
    target: Any = export
    for step in where[:-1]:
        target = target[step]
    target[where[-1]] = value
    verdict = verify_export(export)
    assert not verdict.ok and verdict.checks[0].name == "format"
    assert says in verdict.checks[0].detail
    path = tmp_path / "mistyped.json"
    path.write_text(json.dumps(export))
    out = subprocess.run([sys.executable, "-m", "cablecar.cli", "verify", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and says in out.stdout and "NOT VALID" in out.stdout
    assert "Traceback" not in out.stderr and "not supported between" not in out.stdout + out.stderr
