"""A record cannot be talked out of its signatures (issue 34).

Forged records as someone with the database but without the private key
makes them (the players renamed, the hash chain recomputed: it has no
secret, every ``signature`` and ``key_id`` dropped; or the signatures
alone dropped) fail ``cablecar verify --keys`` on the real command line and
the checks ``/audit`` runs; an event signed after its key's ``retired_at``
fails; ``--allow-unsigned`` admits a record from before signing but never an
unsigned event after a signed one; without ``--keys`` nothing says "ok" of
the signatures."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.integrity.keyset import KeySet
from events.integrity.verify import verify_record
from service.adapters.signing_keys import rotate
from service.api.app import create_app
from service.config import Settings
from service.usecases.records import signature_rules
from tests.api.conftest import create, finish_setup
from tests.api.test_seeds import _finished_export
from tests.api.test_verify_tamper import rechain

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def _finished(client: FlaskClient, seed: str = "strict") -> dict[str, Any]:
    return _finished_export(client, players=2, seed=seed)


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def _stripped(export: dict[str, Any]) -> dict[str, Any]:
    """``export`` with ``signature`` and ``key_id`` dropped from every event."""
    forged = copy.deepcopy(export)
    forged["events"] = [{k: v for k, v in e.items() if k not in ("signature", "key_id")} for e in forged["events"]]
    return forged


def _renamed_and_rechained(export: dict[str, Any]) -> dict[str, Any]:
    names = {p: f"Mallory{i}" for i, p in enumerate(export["game"]["players"])}
    forged = _stripped(export)
    forged["game"]["players"] = list(names.values())
    for e in forged["events"]:
        e["payload"] = _renamed(e["payload"], names)
    assert forged["events"][0]["payload"]["players"] == list(names.values())
    return rechain(forged)


def verify_cli(tmp_path: Path, record: dict[str, Any], *options: str,
               keys: dict[str, Any] | None = None) -> subprocess.CompletedProcess[str]:
    """``cablecar verify`` run as a user runs it, on ``record`` (and ``keys`` saved as KEYS.json)."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    given: list[str] = []
    if keys is not None:
        (tmp_path / "keys.json").write_text(json.dumps(keys))
        given = ["--keys", str(tmp_path / "keys.json")]
    return subprocess.run([sys.executable, "-m", "cablecar.cli", "verify", *given, *options, str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def _audited(app: Flask, record: dict[str, Any]) -> Any:
    """The verdict of ``/audit``'s checks, with that server's keys and rules, on ``record``."""
    header = {k: v for k, v in record.items() if k != "events"}
    queries = app.extensions["cablecar"].queries
    return verify_record(header, record["events"], require_revealed_seed=False, **signature_rules(queries))


@pytest.mark.parametrize("forge", [_renamed_and_rechained, _stripped])
def test_a_record_stripped_of_its_signatures_fails_verify_keys_and_the_audit(
    forge: Any, app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    export = _finished(client)
    keys = client.get("/v1/keys").get_json()
    forged = forge(export)
    first = forged["events"][0]
    out = verify_cli(tmp_path, forged, keys=keys)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "FAIL signatures" in out.stdout and f"seq 1: unsigned [{first['type']}]" in out.stdout, out.stdout
    assert "NOT VALID" in out.stdout
    audited = _audited(app, forged)
    failed = {c.name: c.detail for c in audited.checks if c.checked and not c.ok}
    assert audited.failed and list(failed) == ["signatures"], audited.to_json()
    assert failed["signatures"].startswith("seq 1: unsigned, recorded after the server began signing")
    # --allow-unsigned is for records from before signing: these events were recorded after the keys were made
    out = verify_cli(tmp_path, forged, "--allow-unsigned", keys=keys)
    assert out.returncode == 1 and "seq 1: unsigned, recorded after the server began signing" in out.stdout


def test_the_audit_names_a_stored_game_whose_signatures_were_removed(app: Flask, client: FlaskClient,
                                                                     tmp_path: Path) -> None:
    import sqlite3

    game = create(client, players=2, seed="stripped-in-place")
    finish_setup(client, game)
    with sqlite3.connect(tmp_path / "cablecar.sqlite3", isolation_level=None) as conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET signature = NULL, key_id = NULL WHERE game_id = ?", (game["id"],))
        conn.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
                     "BEGIN SELECT RAISE(ABORT, 'events are immutable'); END")
        conn.execute("COMMIT")
    fresh = create_app(Settings(data_dir=str(tmp_path), webhooks=False))
    try:
        audit = fresh.test_client().get(f"/v1/games/{game['id']}/audit").get_json()
    finally:
        fresh.extensions["cablecar"].stores.close()
    failed = {c["name"]: c["detail"] for c in audit["checks"] if not c["ok"]}
    assert audit["ok"] is False and list(failed) == ["signatures"], audit
    assert failed["signatures"].startswith("seq 1: unsigned, recorded after the server began signing")


def test_an_event_signed_after_its_key_was_retired_fails(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path / "data"), webhooks=False)
    before = create_app(settings)  # a server not restarted after the rotation: it signs with the old key
    try:
        earlier = _finished(before.test_client(), seed="before-rotation")
        retired, _ = rotate(settings, grace_seconds=0)
        later = _finished(before.test_client(), seed="after-rotation")
    finally:
        before.extensions["cablecar"].stores.close()
    after = create_app(settings)
    try:
        keys = after.test_client().get("/v1/keys").get_json()
        assert any(k["key_id"] == retired.key_id and k["retired_at"] for k in keys["keys"])
        assert {e["key_id"] for e in later["events"]} == {retired.key_id}
        out = verify_cli(tmp_path, later, keys=keys)
        assert out.returncode == 1 and "NOT VALID" in out.stdout, out.stdout + out.stderr
        assert f"seq 1: signed by key {retired.key_id}, recorded after that key was retired" in out.stdout
        audit = after.test_client().get(f"/v1/games/{later['game']['id']}/audit").get_json()
        assert audit["ok"] is False and f"signed by key {retired.key_id}" in str(audit["checks"]), audit
        out = verify_cli(tmp_path, earlier, keys=keys)  # signed before the retirement: still valid
        assert out.returncode == 0 and "is VALID" in out.stdout, out.stdout + out.stderr
    finally:
        after.extensions["cablecar"].stores.close()


def test_allow_unsigned_admits_a_record_from_before_signing_but_no_unsigned_event_after_a_signed_one(
    client: FlaskClient, tmp_path: Path
) -> None:
    old = json.loads((DATA / "old_records" / "ttr-sf-2.export.json").read_text())
    keys = client.get("/v1/keys").get_json()
    out = verify_cli(tmp_path, old, keys=keys)
    assert out.returncode == 1 and "seq 1: unsigned [game_set_up]" in out.stdout, out.stdout
    out = verify_cli(tmp_path, old, "--allow-unsigned", keys=keys)
    assert out.returncode == 0 and "is VALID" in out.stdout and "UNSIGNED" in out.stdout, out.stdout + out.stderr

    export = _finished(client)
    gap = copy.deepcopy(export)
    late = gap["events"][-1]
    del late["signature"], late["key_id"]
    out = verify_cli(tmp_path, gap, "--allow-unsigned", keys=keys)
    assert out.returncode == 1 and f"seq {late['seq']}: unsigned, after signed events" in out.stdout, out.stdout
    head = copy.deepcopy(export)  # an unsigned opening recorded after the keys were made: not from before signing
    for e in head["events"][:3]:
        del e["signature"], e["key_id"]
    out = verify_cli(tmp_path, head, "--allow-unsigned", keys=keys)
    assert out.returncode == 1 and "seq 1: unsigned, recorded after the server began signing" in out.stdout


def test_without_keys_nothing_says_ok_of_the_signatures(client: FlaskClient, tmp_path: Path) -> None:
    export = _finished(client)
    out = verify_cli(tmp_path, export)
    assert out.returncode == 0, out.stdout + out.stderr  # nothing checked failed
    [line] = [line for line in out.stdout.splitlines() if "signatures" in line and "verdict" not in line]
    assert line.startswith("--   signatures NOT CHECKED") and "ok" not in line.split(), line
    verdict_line = out.stdout.splitlines()[-1]
    assert "NOT VERIFIED" in verdict_line and "signatures NOT CHECKED" in verdict_line and " VALID" not in verdict_line
    out = verify_cli(tmp_path, export, "--json")
    verdict = json.loads(out.stdout)
    [check] = [c for c in verdict["checks"] if c["name"] == "signatures"]
    assert verdict["ok"] is False and check["ok"] is False and check["checked"] is False
    refused = verify_cli(tmp_path, export, "--allow-unsigned")
    assert refused.returncode == 2 and "--allow-unsigned" in refused.stderr and not refused.stdout


def test_a_record_signed_and_exported_before_this_change_still_verifies(tmp_path: Path) -> None:
    folder = DATA / "signed_records"
    record = json.loads((folder / "ttr-sf.export.json").read_text())
    keys = json.loads((folder / "keys.json").read_text())
    out = verify_cli(tmp_path, record, keys=keys)
    assert out.returncode == 0 and "is VALID" in out.stdout, out.stdout + out.stderr
    assert f"{len(record['events'])} events signed by key {keys['keys'][0]['key_id']}" in out.stdout
    assert KeySet.from_json(keys).signing_since() == keys["keys"][0]["created_at"]
