"""Issue 48, items 3-5, on the embedded store: the same attacks as
tests/contract/test_custody_attacks.py (there with PostgreSQL's app role),
made by whoever writes the SQLite file without the server's secret or
signing key.  A rotation signed with another key locks no seat out and the
quarantine puts the hash back; an organiser row with a plain hash is refused
and never keyed by a later start; a planted delivery is never POSTed to a
real receiver; the file holds no webhook secret in the clear."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from cablecar.cli import main
from events.factory import sqlite_stores
from events.integrity.signing import Signer
from events.records import AppendOptions, MetadataGuard, NewEvent, TokenChange
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth
from tests.contract.test_custody_attacks import _Receiver


def _app(tmp_path: Path) -> Flask:
    return create_app(Settings(data_dir=str(tmp_path), webhooks=False, webhook_private_addresses=True))


def _hashes(tmp_path: Path, game_id: str) -> list[str]:
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
        [(text,)] = conn.execute("SELECT json_extract(metadata, '$.seat_token_hashes') FROM games WHERE game_id = ?",
                                 (game_id,)).fetchall()
    return list(json.loads(text))


def test_a_forged_rotation_locks_no_seat_out_and_quarantine_puts_the_hash_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(tmp_path)
    try:
        client = app.test_client()
        game = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "A"}, {"name": "B"}]}).get_json()
        gid, token = game["id"], game["seats"][0]["token"]
        genuine = _hashes(tmp_path, gid)
        forger = sqlite_stores(tmp_path / "cablecar.sqlite3", signer=Signer.generate())  # the file, not the key
        try:
            planted = f"k1:{game['version'] + 1}:" + hashlib.sha256(b"chosen").hexdigest()
            forger.events.append(gid, game["version"], [NewEvent("seat_token_rotated", {"seat": 0})],
                                 AppendOptions(guard=MetadataGuard(("seat_token_hashes", 0), genuine[0]),
                                               token=TokenChange(0, planted)))
        finally:
            forger.close()
        assert _hashes(tmp_path, gid)[0] == planted
        assert client.get(f"/v1/games/{gid}", headers=auth(token)).get_json()["me"]["seat"] == 0
        for name in ("DATABASE_URL", "CABLECAR_READ_DATABASE_URL", "REDIS_URL", "CABLECAR_SIGNING_KEY_FILE"):
            monkeypatch.delenv(name, raising=False)
        assert main(["quarantine", gid, "--data-dir", str(tmp_path)]) == 0
        assert _hashes(tmp_path, gid) == genuine
        assert client.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).status_code == 200
    finally:
        app.extensions["cablecar"].stores.close()


def test_a_plain_organiser_hash_is_refused_and_never_keyed(tmp_path: Path) -> None:
    _app(tmp_path).extensions["cablecar"].stores.close()
    token = "ot_0123456789abcdef_" + "M" * 43
    plain = hashlib.sha256(token.encode()).hexdigest()
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn, pytest.raises(sqlite3.IntegrityError, match="keyed"):
        conn.execute("INSERT INTO organisers VALUES ('0123456789abcdef', 'Mallory', ?, '2026-01-01T00:00:00Z')",
                     (plain,))
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:  # in anyway (the trigger dropped and put back)
        [(trigger,)] = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'organisers_token_hash_keyed'")
        conn.execute("DROP TRIGGER organisers_token_hash_keyed")
        conn.execute("INSERT INTO organisers VALUES ('0123456789abcdef', 'Mallory', ?, '2026-01-01T00:00:00Z')",
                     (plain,))
        conn.execute(trigger)
    again = _app(tmp_path)  # opening migrates: nothing pending, nothing keyed
    try:
        assert again.test_client().get("/v1/organisers/me", headers=auth(token)).status_code == 401
    finally:
        again.extensions["cablecar"].stores.close()
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
        assert conn.execute("SELECT token_hash FROM organisers WHERE organiser_id = '0123456789abcdef'"
                            ).fetchall() == [(plain,)]


def test_a_planted_delivery_is_never_sent_and_the_secret_is_sealed(tmp_path: Path) -> None:
    from service.adapters.webhooks.hmac import signature_matches
    from service.bootstrap import webhook_dispatcher

    app = _app(tmp_path)
    receiver = _Receiver()
    try:
        client = app.test_client()
        org = auth(client.post("/v1/organisers", json={"name": "Open"}).get_json()["token"])
        hook: dict[str, Any] = client.post("/v1/webhooks", json={"url": receiver.url, "events": ["game.started"]},
                                           headers=org).get_json()
        batch = client.post("/v1/batches", json={"type": "ttr-sf", "tables": [
            {"players": [{"name": "Ada"}, {"name": "Bo"}]}]}, headers=org).get_json()
        dispatcher = webhook_dispatcher(app.extensions["cablecar"].service)
        dispatcher.scan()
        with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
            [(stored, mac)] = conn.execute("SELECT w.secret, d.body_mac FROM webhooks w JOIN webhook_deliveries d"
                                           " ON d.webhook_id = w.webhook_id").fetchall()
            body = json.dumps({"id": "forged", "type": "game.finished", "game": {"result": "Mallory wins"}})
            conn.execute("INSERT INTO webhook_deliveries (delivery_id, webhook_id, game_id, event, body, state,"
                         " attempts, created_at, next_attempt_at, occurrence, body_mac) VALUES ('forged', ?, ?,"
                         " 'game.finished', ?, 'pending', 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 0, ?)",
                         (hook["id"], batch["games"][0]["id"], body, mac))
        assert stored != hook["secret"] and hook["secret"] not in stored
        for _ in range(3):
            dispatcher.deliver_due()
        [(headers, sent)] = receiver.bodies
        assert json.loads(sent)["type"] == "game.started"
        assert signature_matches(hook["secret"], sent, headers["x-cablecar-signature"])
        log = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=org).get_json()["deliveries"]
        [forged] = [d for d in log if d["id"] == "forged"]
        assert forged["state"] == "failed" and forged["last_error"].startswith("refused"), forged
    finally:
        receiver.close()
        app.extensions["cablecar"].stores.close()
