"""The log outranks the database (issue 48, item 1), on both backends, through the real app and the real
command line: the owner garbles the stored signature of an event a published checkpoint holds and runs
``cablecar quarantine``; nothing moves (the command fails naming the checkpoint, and the database itself
refuses the DELETE), no winner changes, and ``/audit`` and ``cablecar verify --checkpoint`` give one
verdict on the stored record: damaged and log-attested.  A tail no checkpoint holds yet is still moved
aside, publicly: its signed ``events_quarantined`` lists the range and the hashes, ``verify`` prints it on
a line of its own (never a bare VALID), ``/audit`` says the same, and a copy saved before the quarantine
verifies as SUPERSEDED at that seq against the later record (``--against``), not as invalid."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from cablecar.cli import main
from events.encoding.canonical import canonical_json
from events.integrity.envelope import event_hash
from events.recorders.quarantine import LoggedEvent
from service.adapters.signing_keys import load_server_keys
from service.config import Settings
from tests.api.conftest import auth
from tests.api.test_damaged_games import Forge, backend  # noqa: F401  (backend: the fixture)
from tests.api.test_quarantine import _moved, _owner_url, _quarantine
from tests.api.test_transparency_log import _publish

Backend = tuple[Callable[[], Flask], Forge]
GARBAGE = "AAAA"
#: the columns a quarantine keeps (events/sql/quarantine.py)
_KEPT = ("game_id, seq, position, type, schema_version, payload, recorded_at, seat, idempotency_key, prev_hash,"
         " hash, signature, key_id")

pytestmark = pytest.mark.usefixtures("bots_alive")


def _as_owner(app: Flask, tmp_path: Path, *statements: tuple[str, tuple[Any, ...]], guards: bool = False) -> None:
    """Statements run by the database's owner in one transaction; ``guards``: with the triggers that keep
    events immutable set aside first (as the owner of the tables can), and back afterwards."""
    url = _owner_url(app)
    if url is not None:
        import psycopg

        with psycopg.connect(url) as conn, conn.transaction():
            if guards:
                conn.execute(b"ALTER TABLE events DISABLE TRIGGER events_immutable")
            for sql, params in statements:
                conn.execute(sql.replace("?", "%s").encode(), params)
            if guards:
                conn.execute(b"ALTER TABLE events ENABLE TRIGGER events_immutable")
        return
    conn = sqlite3.connect(tmp_path / "cablecar.sqlite3", isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        [(trigger,)] = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events_no_update'").fetchall()
        if guards:
            conn.execute("DROP TRIGGER events_no_update")
        for sql, params in statements:
            conn.execute(sql, params)
        if guards:
            conn.execute(trigger)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()


def _garble(app: Flask, tmp_path: Path, game_id: str, seq: int) -> None:
    """What the issue's operator did as the database's superuser: one stored signature set to garbage."""
    _as_owner(app, tmp_path, ("UPDATE events SET signature = ? WHERE game_id = ? AND seq = ?",
                              (GARBAGE, game_id, seq)), guards=True)


def _save(app: Flask, path: Path, url: str) -> dict[str, Any]:
    resp = app.test_client().get(url)
    assert resp.status_code == 200, (url, resp.get_json())
    path.write_text(json.dumps(resp.get_json()), encoding="utf-8")
    return dict(resp.get_json())


def _resigned(client: Any, game: dict[str, Any], seat: int) -> int:
    resp = client.post(f"/v1/games/{game['id']}/actions", json={"type": "resign"},
                       headers=auth(game["seats"][seat]["token"]))
    assert resp.status_code == 201, resp.get_json()
    return int(resp.get_json()["version"])


def _verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, dict[str, Any]]:
    """``cablecar verify ARGS``: its exit code, what it printed, and its ``--json`` verdict."""
    code = main(["verify", *args])
    out = capsys.readouterr().out
    assert main(["verify", "--json", *args]) == code
    return code, out, json.loads(capsys.readouterr().out)


def _game(client: Any) -> dict[str, Any]:
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}],
                                          "seed": "logged history"})
    assert resp.status_code == 201, resp.get_json()
    return dict(resp.get_json())


def test_a_logged_event_is_never_quarantined_and_the_winner_stands(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    game = _game(client)
    gid = game["id"]
    version = _resigned(client, game, 0)  # Bo wins
    f = {name: tmp_path / name for name in ("keys.json", "cp.json", "proof.json", "saved.json", "stored.json")}
    _save(app, f["keys.json"], "/v1/keys")
    saved = _save(app, f["saved.json"], f"/v1/games/{gid}/export")
    assert saved["result"]["winners"] == [1]
    [resigned] = [e["seq"] for e in saved["events"] if e["type"] == "seat_resigned"]
    cp = _publish(app)  # the whole game is in the log now
    _save(app, f["cp.json"], "/v1/log/checkpoint")
    _save(app, f["proof.json"], f"/v1/games/{gid}/inclusion?tree_size={cp['tree_size']}")

    _garble(app, tmp_path, gid, resigned)
    assert _quarantine(app, gid, tmp_path, monkeypatch) == 1
    said = capsys.readouterr().err.strip().splitlines()[-1]  # one line, after the one naming the store
    assert said.startswith("cablecar quarantine: ") and f"seq {resigned} is leaf" in said, said
    assert f"held by the checkpoint {cp['origin']} of tree size" in said, said
    assert "a logged event is never moved aside, nothing was moved" in said, said
    assert _moved(app, gid, tmp_path) == []

    # the game is as it was: finished, Bo the winner, and nobody acts in it
    later = new_app().test_client()
    listed = later.get(f"/v1/games/{gid}").get_json()
    assert listed["damaged_from"] == resigned and listed.get("result", {}) in (None, {}, saved["result"]), listed
    resp = later.post(f"/v1/games/{gid}/actions", json={"type": "resign"}, headers=auth(game["seats"][1]["token"]))
    assert resp.status_code == 409, resp.get_json()
    stored = _save(new_app(), f["stored.json"], f"/v1/games/{gid}/export")
    assert stored["damaged_from"] == resigned and stored["result"] == saved["result"]
    assert stored["game"]["version"] == version and stored["game"]["status"] == "finished"
    assert [e["hash"] for e in stored["events"]] == [e["hash"] for e in saved["events"]]

    # one verdict on the stored record: damaged, and the log holds it as it is
    p = {k: str(v) for k, v in f.items()}
    code, out, verdict = _verify(capsys, "--keys", p["keys.json"], "--checkpoint", p["cp.json"],
                                 "--proof", p["proof.json"], p["stored.json"])
    assert code == 1 and f"is DAMAGED at seq {resigned} and LOG-ATTESTED" in out, out
    assert f"FAIL signatures seq {resigned}:" in out and "ok   inclusion" in out, out
    audit = later.get(f"/v1/games/{gid}/audit").get_json()
    assert audit["verdict"] == verdict["verdict"] == "damaged_attested", (audit, verdict)
    assert audit["conclusion"] == verdict["conclusion"] and audit["ok"] is False and "quarantined" not in audit
    assert audit["damaged_from"] == resigned
    # the player's saved copy is what the log holds, and still verifies
    code, out, _ = _verify(capsys, "--keys", p["keys.json"], "--checkpoint", p["cp.json"], "--proof",
                           p["proof.json"], p["saved.json"])
    assert code == 0 and out.rstrip().endswith("is VALID"), out
    # without the checkpoint, verify cannot tell the log holds it: the damage alone
    code, out, verdict = _verify(capsys, "--keys", p["keys.json"], p["stored.json"])
    assert code == 1 and verdict["verdict"] == "not_valid", out


def test_a_logged_event_rewritten_in_place_stays_and_the_audit_says_the_log_holds_another(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The stored event's payload and hash rewritten (its signature no longer matches): still never
    moved, and the audit's ``inclusion`` check says the stored record is not the one the log holds."""
    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    game = _game(client)
    gid = game["id"]
    version = _resigned(client, game, 0)
    _publish(app)
    [last] = app.extensions["cablecar"].stores.events.load(gid, version - 1, 1)
    payload = {**last.payload, "seat": 1}  # Ada resigned; the row now says Bo did
    digest = event_hash(game_id=gid, seq=last.seq, type=last.type, schema_version=last.schema_version,
                        payload=payload, recorded_at=last.recorded_at, seat=last.seat,
                        idempotency_key=last.idempotency_key, prev_hash=last.prev_hash)
    _as_owner(app, tmp_path, ("UPDATE events SET payload = ?, hash = ? WHERE game_id = ? AND seq = ?",
                              (canonical_json(payload), digest, gid, version)), guards=True)

    assert _quarantine(app, gid, tmp_path, monkeypatch) == 1
    assert f"seq {version} is leaf" in capsys.readouterr().err
    assert _moved(app, gid, tmp_path) == []
    audit = new_app().test_client().get(f"/v1/games/{gid}/audit").get_json()
    assert audit["verdict"] == "not_valid" and audit["damaged_from"] == version, audit
    inclusion = next(c for c in audit["checks"] if c["name"] == "inclusion")
    assert not inclusion["ok"] and "changed after it was logged" in inclusion["detail"], inclusion


def test_the_store_and_the_database_refuse_to_move_a_logged_event(
    backend: Backend, tmp_path: Path,  # noqa: F811
) -> None:
    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    game = _game(client)
    gid = game["id"]
    version = _resigned(client, game, 0)
    cp = _publish(app)
    stores = app.extensions["cablecar"].stores
    head = stores.events.load(gid, version - 2, 1)[0]
    signer = load_server_keys(Settings(data_dir=str(tmp_path))).signer

    # the store's own check, whoever calls it, before anything is written
    with pytest.raises(LoggedEvent) as refused:
        stores.quarantine.set_aside(gid, version, head.hash, "playing", "by hand", signer)
    assert refused.value.seq == version and refused.value.tree_size <= cp["tree_size"]
    assert refused.value.origin == cp["origin"]
    # the database's: the owner copying the event into quarantine by hand, then deleting it
    payload = "payload" if _owner_url(app) is None else "payload::text"
    copy = (f"INSERT INTO quarantined_events ({_KEPT}, from_seq, quarantined_at, reason)"
            f" SELECT {_KEPT.replace(' payload,', f' {payload},')}, seq, ?, 'by hand' FROM events"
            " WHERE game_id = ? AND seq = ?")
    delete = ("DELETE FROM events WHERE game_id = ? AND seq = ?", (gid, version))
    with pytest.raises(Exception, match="a logged event never leaves the log") as error:
        _as_owner(app, tmp_path, (copy, ("2026-01-01T00:00:00Z", gid, version)), delete)
    assert type(error.value).__name__ in ("IntegrityError", "IntegrityConstraintViolation")
    assert _moved(app, gid, tmp_path) == []
    assert [e.seq for e in stores.events.load(gid)][-1] == version


def _rechained_v1(record: dict[str, Any], seq: int, sign: Callable[[str], str]) -> dict[str, Any]:
    """``record`` with its quarantine at ``seq`` as a server before issue 48 wrote it (schema version 1:
    ``from_seq`` and ``count`` only), the chain recomputed from there and re-signed with the server's key."""
    events = [dict(e) for e in record["events"]]
    prev = events[seq - 2]["hash"]
    for e in events[seq - 1:]:
        if e["seq"] == seq:
            e["payload"] = {"from_seq": e["payload"]["from_seq"], "count": e["payload"]["count"]}
            e["schema_version"] = 1
        e["prev_hash"] = prev
        e["hash"] = event_hash(game_id=e["game_id"], seq=e["seq"], type=e["type"],
                               schema_version=e["schema_version"], payload=e["payload"],
                               recorded_at=e["recorded_at"], seat=e["seat"], idempotency_key=e["idempotency_key"],
                               prev_hash=prev)
        e["signature"] = sign(e["hash"])
        prev = e["hash"]
    return {**record, "events": events, "chain": {**record["chain"], "head": prev}}


def test_an_unlogged_tail_is_quarantined_publicly_and_a_copy_saved_before_is_superseded(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    game = _game(client)
    gid = game["id"]
    _publish(app)  # the opening is logged; what follows is not yet
    version = _resigned(client, game, 0)
    f = {name: tmp_path / name for name in ("keys.json", "saved.json", "later.json", "cp.json", "proof.json",
                                            "old.json")}
    p = {k: str(v) for k, v in f.items()}
    _save(app, f["keys.json"], "/v1/keys")
    saved = _save(app, f["saved.json"], f"/v1/games/{gid}/export")
    [resigned] = [e["seq"] for e in saved["events"] if e["type"] == "seat_resigned"]
    moved = [e["hash"] for e in saved["events"][resigned - 1:]]

    _garble(app, tmp_path, gid, resigned)
    assert _quarantine(app, gid, tmp_path, monkeypatch) == 0
    assert f"moved {version - resigned + 1} event(s) from seq {resigned}" in capsys.readouterr().out
    assert [h for _, h, _ in _moved(app, gid, tmp_path)] == moved
    later = new_app()
    client = later.test_client()
    _resigned(client, game, 1)  # the game went on from the quarantine: Bo resigns now, Ada wins
    record = _save(later, f["later.json"], f"/v1/games/{gid}/export")
    quarantine = record["events"][resigned - 1]
    assert quarantine["type"] == "events_quarantined" and quarantine["schema_version"] == 2
    assert quarantine["payload"] == {"from_seq": resigned, "to_seq": version, "count": len(moved), "hashes": moved}

    # the later record: valid, its quarantine on a line of its own, never a bare VALID; /audit says the same
    code, out, verdict = _verify(capsys, "--keys", p["keys.json"], p["later.json"])
    assert code == 0 and verdict["verdict"] == "valid", out
    [line] = [ln for ln in out.splitlines() if ln.startswith("QUARANTINE ")]
    assert f"QUARANTINE seq {resigned}: events seq {resigned}..{version} ({len(moved)})" in line
    assert all(h[:16] in line for h in moved), line
    last = out.rstrip().splitlines()[-1]
    assert "is VALID, with 1 QUARANTINE" in last and not last.endswith("is VALID"), last
    assert verdict["quarantines"] == [{"seq": resigned, "from_seq": resigned, "to_seq": version,
                                       "count": len(moved), "hashes": moved,
                                       "recorded_at": quarantine["recorded_at"]}]
    audit = client.get(f"/v1/games/{gid}/audit").get_json()
    assert (audit["verdict"], audit["conclusion"], audit["quarantines"]) == (
        verdict["verdict"], verdict["conclusion"], verdict["quarantines"])

    # the copy saved before: genuine, superseded at the quarantine's seq, not invalid
    code, out, verdict = _verify(capsys, "--keys", p["keys.json"], "--against", p["later.json"], p["saved.json"])
    assert code == 0 and verdict["verdict"] == "superseded", out
    assert f"is SUPERSEDED at seq {resigned}: genuine" in out and f"seq {resigned}..{version}" in out, out
    assert verdict["superseded"] == {"from_seq": resigned, "to_seq": version, "quarantine_seq": resigned,
                                     "later": p["later.json"]}
    # against a checkpoint published later: the later record is in it, and so the events the two share
    cp = _publish(later)
    _save(later, f["cp.json"], "/v1/log/checkpoint")
    _save(later, f["proof.json"], f"/v1/games/{gid}/inclusion?tree_size={cp['tree_size']}")
    code, out, verdict = _verify(capsys, "--keys", p["keys.json"], "--checkpoint", p["cp.json"], "--proof",
                                 p["proof.json"], "--against", p["later.json"], p["saved.json"])
    assert code == 0 and verdict["verdict"] == "superseded" and "ok   inclusion" in out, out
    assert f"ok   inclusion {p['later.json']}: last event" in out, out
    # the log never held the events moved aside
    positions = {e["position"] for e in saved["events"][resigned - 1:]}
    leaves = later.extensions["cablecar"].stores.database.rows("SELECT position FROM log_leaves")
    assert not positions & {int(r[0]) for r in leaves}
    # the later record checked against the earlier one (not what --against is for): nothing in the earlier
    # one explains the difference, so one of the two was rewritten
    code, out, _ = _verify(capsys, "--keys", p["keys.json"], "--against", p["saved.json"], p["later.json"])
    assert code == 1 and "no quarantine of it lists this record's events" in out, out

    # a record whose quarantine a server before issue 48 wrote (no hashes) still verifies, saying so
    signer = load_server_keys(Settings(data_dir=str(tmp_path))).signer
    f["old.json"].write_text(canonical_json(_rechained_v1(record, resigned, signer.sign)), encoding="utf-8")
    code, out, verdict = _verify(capsys, "--keys", p["keys.json"], p["old.json"])
    assert code == 0 and verdict["verdict"] == "valid", out
    assert verdict["quarantines"][0]["hashes"] is None and "hashes moved were not listed" in out, out
    code, out, verdict = _verify(capsys, "--keys", p["keys.json"], "--against", p["old.json"], p["saved.json"])
    assert code == 0 and verdict["verdict"] == "not_verified" and "does not list their hashes" in out, out


class _QuarantineAfterReading:
    """The app's transparency log, with ``cablecar quarantine`` landing right after the publisher read the
    global log and before it writes its checkpoint (the race the store's turns close)."""

    def __init__(self, log: Any, quarantine: Callable[[], int]) -> None:
        self._log = log
        self._quarantine = quarantine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._log, name)

    def log_events(self, after_position: int, limit: int) -> Any:
        read = self._log.log_events(after_position, limit)
        if read:
            assert self._quarantine() == 0
        return read


def test_a_tail_moved_aside_while_the_publisher_worked_never_enters_the_log(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
) -> None:
    from service.api.app import log_publisher
    from service.usecases.checkpoints import LogPublisher

    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    game = _game(client)
    gid = game["id"]
    _publish(app)
    _resigned(client, game, 0)
    saved = app.test_client().get(f"/v1/games/{gid}/export").get_json()
    [resigned] = [e["seq"] for e in saved["events"] if e["type"] == "seat_resigned"]
    moved = {e["position"] for e in saved["events"][resigned - 1:]}
    _garble(app, tmp_path, gid, resigned)

    real = log_publisher(app).publisher
    racing = LogPublisher(_QuarantineAfterReading(real.log, lambda: _quarantine(app, gid, tmp_path, monkeypatch)),
                          real.signer, real.origin, real.clock)
    assert racing.publish() is None  # what it read changed under it: nothing published
    cp = _publish(app)  # the next rounds publish the log as it is now
    leaves = {int(r[0]) for r in app.extensions["cablecar"].stores.database.rows("SELECT position FROM log_leaves")}
    assert not moved & leaves
    assert cp["tree_size"] == len(leaves)
    assert app.test_client().get(f"/v1/games/{gid}/audit").get_json()["verdict"] == "valid"
