"""Signed records: every stored event carries the server's Ed25519 signature
of its hash; a record rebuilt without the private key fails ``/audit`` and
``cablecar verify --keys``, a wrong signature makes the game damaged, and
records signed before a key rotation still verify."""

from __future__ import annotations

import copy
import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from events.integrity.envelope import event_hash
from events.integrity.keyset import KeySet
from events.integrity.verify import verify_export
from service.adapters.signing_keys import load_server_keys, rotate
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth, create, finish_setup, play_to_end

ROOT = Path(__file__).resolve().parents[2]

Tamper = Callable[[list[tuple[str, tuple[Any, ...]]]], None]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Callable[[], Flask], Tamper]]:
    """``new_app()``: a server (as another worker would be: nothing held) on
    one store; ``tamper(statements)``: raw SQL as the tables' owner, past the
    immutability triggers (``?`` placeholders)."""
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    apps: list[Flask] = []
    if request.param == "sqlite":
        def new_app() -> Flask:
            apps.append(create_app(settings))
            return apps[-1]

        def tamper(statements: list[tuple[str, tuple[Any, ...]]]) -> None:
            with sqlite3.connect(tmp_path / "cablecar.sqlite3", isolation_level=None) as conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("DROP TRIGGER events_no_update")
                for sql, params in statements:
                    conn.execute(sql, params)
                conn.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
                             "BEGIN SELECT RAISE(ABORT, 'events are immutable'); END")
                conn.execute("COMMIT")
        yield new_app, tamper
    else:
        import psycopg

        from events.factory import postgres_stores
        from tests.contract.conftest import create_database, drop_database, postgres_admin_url

        admin = postgres_admin_url()
        url = create_database(admin, "cc_signed")

        def new_app() -> Flask:
            apps.append(create_app(settings, stores=postgres_stores(url, signer=load_server_keys(settings).signer)))
            return apps[-1]

        def tamper(statements: list[tuple[str, tuple[Any, ...]]]) -> None:
            with psycopg.connect(url) as conn, conn.transaction():
                conn.execute(b"ALTER TABLE events DISABLE TRIGGER events_immutable")
                for sql, params in statements:
                    conn.execute(sql.replace("?", "%s").encode(), params)
                conn.execute(b"ALTER TABLE events ENABLE TRIGGER events_immutable")
        try:
            yield new_app, tamper
        finally:
            for app in apps:
                app.extensions["cablecar"].stores.close()
            apps.clear()
            drop_database(admin, url)
    for app in apps:
        app.extensions["cablecar"].stores.close()


def _finished(app: Flask) -> dict[str, Any]:
    client = app.test_client()
    game = create(client, players=2, seed="signed")
    finish_setup(client, game)
    play_to_end(client, game)
    return game


def _export(app: Flask, game_id: str) -> dict[str, Any]:
    resp = app.test_client().get(f"/v1/games/{game_id}/export")
    assert resp.status_code == 200, resp.get_json()
    data: dict[str, Any] = resp.get_json()
    return data


def _later(stamp: str) -> str:
    """The same instant one second later (same text format)."""
    return stamp[:17] + f"{(int(stamp[17:19]) + 1) % 60:02d}" + stamp[19:]


def rechain_from(events: list[dict[str, Any]], index: int) -> None:
    """Change event ``index``'s time and recompute every hash from it on, as
    someone with write access but without the private key would."""
    events[index]["recorded_at"] = _later(events[index]["recorded_at"])
    prev = events[index]["prev_hash"]
    for e in events[index:]:
        e["prev_hash"] = prev
        e["hash"] = event_hash(game_id=e["game_id"], seq=e["seq"], type=e["type"],
                               schema_version=e["schema_version"], payload=e["payload"],
                               recorded_at=e["recorded_at"], seat=e["seat"],
                               idempotency_key=e["idempotency_key"], prev_hash=prev)
        prev = e["hash"]


def test_every_event_is_signed_and_the_keys_are_published(backend: tuple[Callable[[], Flask], Tamper]) -> None:
    new_app, _ = backend
    app = new_app()
    game = _finished(app)
    keys = app.test_client().get("/v1/keys").get_json()
    [key] = keys["keys"]
    assert key["algorithm"] == "ed25519" and key["retired_at"] is None and len(key["key_id"]) == 16
    export = _export(app, game["id"])
    assert {e["key_id"] for e in export["events"]} == {key["key_id"]}
    page = app.test_client().get(f"/v1/games/{game['id']}/events").get_json()["events"]
    assert all(e["signature"] == x["signature"] for e, x in zip(page, export["events"], strict=True))
    verdict = verify_export(export, KeySet.from_json(keys))
    assert verdict.ok, verdict.to_json()
    check = next(c for c in verdict.checks if c.name == "signatures")
    assert check.detail.startswith(f"{len(export['events'])} events signed by key {key['key_id']}")


def test_a_record_rechained_without_the_private_key_fails_verify_and_audit(
    backend: tuple[Callable[[], Flask], Tamper], tmp_path: Path
) -> None:
    new_app, tamper = backend
    app = new_app()
    game = _finished(app)
    gid = game["id"]
    export = _export(app, gid)
    keys = app.test_client().get("/v1/keys").get_json()
    forged = copy.deepcopy(export)
    index = len(forged["events"]) // 2
    rechain_from(forged["events"], index)
    forged["chain"]["head"] = forged["events"][-1]["hash"]
    seq = forged["events"][index]["seq"]

    # offline: the chain holds, the signatures do not
    unchecked = verify_export(forged)
    assert {c.name: c.ok for c in unchecked.checks}["chain"] is True
    assert "NOT CHECKED" in next(c.detail for c in unchecked.checks if c.name == "signatures")
    verdict = verify_export(forged, KeySet.from_json(keys))
    bad = {c.name: c.detail for c in verdict.checks if not c.ok}
    assert verdict.failed and list(bad) == ["signatures"] and bad["signatures"].startswith(f"seq {seq}:")
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    (tmp_path / "keys.json").write_text(json.dumps(keys))
    cli = [sys.executable, "-m", "cablecar.cli", "verify"]
    out = subprocess.run([*cli, "--keys", str(tmp_path / "keys.json"), str(tmp_path / "forged.json")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "FAIL signatures" in out.stdout and "NOT VALID" in out.stdout, out.stdout
    out = subprocess.run([*cli, str(tmp_path / "forged.json")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "NOT CHECKED" in out.stdout, out.stdout

    # the same rewrite in the database: the game is damaged, the audit names the signature
    tamper([("UPDATE events SET recorded_at = ?, prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?",
             (e["recorded_at"], e["prev_hash"], e["hash"], gid, e["seq"])) for e in forged["events"][index:]]
           + [("UPDATE games SET last_hash = ? WHERE game_id = ?", (forged["events"][-1]["hash"], gid))])
    fresh = new_app().test_client()
    resp = fresh.get(f"/v1/games/{gid}")  # shown up to the last event that is genuine
    assert resp.status_code == 200 and resp.get_json()["damaged_from"] == seq and resp.get_json()["version"] == seq - 1
    audit = fresh.get(f"/v1/games/{gid}/audit").get_json()
    failed = {c["name"]: c["detail"] for c in audit["checks"] if not c["ok"]}
    assert audit["ok"] is False and list(failed) == ["signatures"] and f"seq {seq}" in failed["signatures"]


def test_a_wrong_signature_makes_the_game_damaged_and_nothing_is_appended(
    backend: tuple[Callable[[], Flask], Tamper]
) -> None:
    new_app, tamper = backend
    app = new_app()
    client = app.test_client()
    game = create(client, players=2, seed="wrong-signature")
    gid = game["id"]
    events = app.extensions["cablecar"].stores.events.load(gid)
    # event 2 gets event 1's signature: well formed, by the right key, of another hash
    tamper([("UPDATE events SET signature = ? WHERE game_id = ? AND seq = 2", (events[0].signature, gid))])
    fresh = new_app().test_client()
    token = auth(game["seats"][0]["token"])
    for resp in (fresh.get(f"/v1/games/{gid}"), fresh.get(f"/v1/games/{gid}/events")):
        assert resp.status_code == 200 and resp.get_json()["damaged_from"] == 2 and resp.get_json()["version"] == 1
    refused = fresh.post(f"/v1/games/{gid}/actions", json={"type": "draw_tickets"}, headers=token)
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_damaged", refused.get_json()
    assert refused.get_json()["seq"] == 2
    assert fresh.application.extensions["cablecar"].stores.events.version(gid) == len(events)  # nothing on top
    audit = fresh.get(f"/v1/games/{gid}/audit").get_json()
    failed = {c["name"]: c["detail"] for c in audit["checks"] if not c["ok"]}
    assert "seq 2: the signature does not match" in failed["signatures"]


def test_records_signed_before_a_key_rotation_still_verify(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    before = create_app(settings)
    old_game = _finished(before)
    old_key = before.test_client().get("/v1/keys").get_json()["keys"][0]["key_id"]
    before.extensions["cablecar"].stores.close()

    retired, new = rotate(settings)
    assert retired.key_id == old_key and new.key_id != old_key
    after = create_app(settings)
    try:
        client = after.test_client()
        keys = client.get("/v1/keys").get_json()
        assert [(k["key_id"], k["retired_at"] is None) for k in keys["keys"]] == [(new.key_id, True),
                                                                                   (old_key, False)]
        assert client.get(f"/v1/games/{old_game['id']}/audit").get_json()["ok"] is True
        new_game = _finished(after)
        for game, key in ((old_game, old_key), (new_game, new.key_id)):
            export = _export(after, game["id"])
            assert {e["key_id"] for e in export["events"]} == {key}
            assert verify_export(export, KeySet.from_json(keys)).ok
    finally:
        after.extensions["cablecar"].stores.close()


def test_records_written_before_signing_verify_as_unsigned_said_plainly() -> None:
    folder = ROOT / "tests" / "api" / "data" / "old_records"
    export = json.loads((folder / "ttr-sf-2.export.json").read_text())
    refused = verify_export(export, KeySet([]))
    assert refused.failed and "seq 1: unsigned [game_set_up]" in refused.checks[1].detail, refused.to_json()
    verdict = verify_export(export, KeySet([]), allow_unsigned=True)
    assert verdict.ok, verdict.to_json()
    detail = next(c.detail for c in verdict.checks if c.name == "signatures")
    assert detail.startswith(f"UNSIGNED: these {len(export['events'])} events were written before")
