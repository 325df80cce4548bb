"""Issue 48, items 4-5, on the embedded store: the same attacks as
tests/contract/test_custody_attacks.py (there with PostgreSQL's app role),
made by whoever writes the SQLite file without the server's secret.  An
organiser row with a plain hash is refused and never keyed by a later start;
a planted delivery is never POSTed to a real receiver; the file holds no
webhook secret in the clear."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth
from tests.contract.test_custody_attacks import _Receiver


def _app(tmp_path: Path) -> Flask:
    return create_app(Settings(data_dir=str(tmp_path), webhooks=False, webhook_private_addresses=True))


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
