"""Issue 48, items 3-5, tried with the app role's own PostgreSQL login and
nothing else (no server secret, no signing key): a rotation signed with the
attacker's key, an organiser row holding the plain hash of a token of the
attacker's choosing, a delivery row with a made-up body.  Afterwards no
token of the attacker's choosing acts, the seat's real token acts (before and
after ``cablecar quarantine``), the planted organiser token stays 401 after a
routine ``cablecar migrate``, the planted delivery is never POSTed to a real
receiver (it is refused, and says so in the delivery log), and the app role
reads no webhook secret in the clear."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from cablecar.cli import main
from events.factory import postgres_stores
from events.integrity.signing import Signer
from events.records import AppendOptions, MetadataGuard, NewEvent, TokenChange
from tests.contract.conftest import TEST_SIGNER
from tests.contract.test_roles import Roles, _migrated, roles  # noqa: F401  (roles: the fixture)

pytestmark = pytest.mark.postgres

SECRET = "the server's secret, 32 bytes or more"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _app(owned: Roles, tmp_path: Path, **settings: Any) -> Flask:
    from service.adapters.signing_keys import ServerKeys
    from service.api.app import create_app
    from service.config import Settings

    configured = Settings(database_url=owned.app_url, secret_key=SECRET, data_dir=str(tmp_path), webhooks=False,
                          **settings)
    return create_app(configured, stores=postgres_stores(owned.app_url, signer=TEST_SIGNER),
                      signing_keys=ServerKeys(TEST_SIGNER))


@pytest.fixture
def served(roles: Roles, tmp_path: Path) -> Iterator[tuple[Flask, Roles]]:  # noqa: F811
    _migrated(roles)
    app = _app(roles, tmp_path, webhook_private_addresses=True)
    yield app, roles
    app.extensions["cablecar"].stores.close()


def _acts_as_seat(client: FlaskClient, game_id: str, token: str) -> bool:
    """Whether ``token`` is taken for a seat (a damaged game then answers 409 ``game_damaged``, not 401)."""
    return client.get(f"/v1/games/{game_id}/legal-actions", headers=_bearer(token)).status_code not in (401, 403)


def _owner(roles: Roles, sql: str, *params: Any) -> list[tuple[Any, ...]]:  # noqa: F811
    import psycopg

    with psycopg.connect(roles.owner_url) as conn:
        cur = conn.execute(sql.encode(), params or None)
        return [tuple(r) for r in cur.fetchall()] if cur.description else []


def _seat_hashes(roles: Roles, game_id: str) -> list[str]:  # noqa: F811
    [(hashes,)] = _owner(roles, "SELECT metadata -> 'seat_token_hashes' FROM games WHERE game_id = %s", game_id)
    return list(hashes)


def _quarantine(roles: Roles, game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from service.adapters.signing_keys import write_key_file

    key_file = tmp_path / "signing-key.json"
    write_key_file(key_file, TEST_SIGNER)
    for name in ("DATABASE_URL", "CABLECAR_READ_DATABASE_URL", "REDIS_URL", "CABLECAR_RETIRED_KEYS_FILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CABLECAR_SIGNING_KEY_FILE", str(key_file))
    assert main(["quarantine", game_id, "--database-url", roles.owner_url, "--reason", "forged rotations"]) == 0


def test_a_rotation_signed_with_another_key_locks_no_seat_out_and_quarantine_puts_the_hash_back(
    served: tuple[Flask, Roles], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import psycopg

    app, owned = served
    client = app.test_client()
    made = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]})
    game = made.get_json()
    gid = game["id"]
    # a genuine rotation first: seat 0's token is now the one the host got (epoch = its event's seq)
    rotated = client.post(f"/v1/games/{gid}/seats/0/token", headers=_bearer(game["host_token"]))
    assert rotated.status_code == 200, rotated.get_json()
    tokens = [rotated.get_json()["token"], game["seats"][1]["token"]]
    genuine = _seat_hashes(owned, gid)
    version = client.get(f"/v1/games/{gid}").get_json()["version"]

    # the app role's login and a key of its own: a forged rotation of each seat, each planting a hash
    forger = postgres_stores(owned.app_url, signer=Signer.generate())
    try:
        for n, seat in enumerate((0, 1)):
            planted = f"k1:{version + n + 1}:" + hashlib.sha256(f"chosen {seat}".encode()).hexdigest()
            forger.events.append(gid, version + n, [NewEvent("seat_token_rotated", {"seat": seat})],
                                 AppendOptions(guard=MetadataGuard(("seat_token_hashes", seat), genuine[seat]),
                                               token=TokenChange(seat, planted)))
    finally:
        forger.close()
    assert _seat_hashes(owned, gid) != genuine  # the database took them: it cannot check a signature
    with psycopg.connect(owned.app_url, autocommit=True) as conn:  # the hashes replaced are the owner's to write
        for attack in ("UPDATE seat_token_rotations SET previous_hash = 'k1:0:' || repeat('0', 64)",
                       "DELETE FROM seat_token_rotations",
                       f"INSERT INTO seat_token_rotations VALUES ('{gid}', 0, 99, 'k1:0:' || repeat('0', 64))"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(attack.encode())

    # a rotation takes effect only if its event verifies: the real tokens still act, nothing else does
    for seat, token in enumerate(tokens):
        assert _acts_as_seat(client, gid, token), seat
        assert client.get(f"/v1/games/{gid}", headers=_bearer(token)).get_json()["me"]["seat"] == seat
    assert not _acts_as_seat(client, gid, game["seats"][0]["token"])  # rotated away for real
    audit = client.get(f"/v1/games/{gid}/audit").get_json()
    assert audit["ok"] is False and audit["damaged_from"] == version + 1, audit

    # the owner's quarantine moves the forged rotations aside and puts each seat's hash back
    _quarantine(owned, gid, tmp_path, monkeypatch)
    assert _seat_hashes(owned, gid) == genuine
    for seat, token in enumerate(tokens):
        assert client.get(f"/v1/games/{gid}/legal-actions", headers=_bearer(token)).status_code == 200, seat
    view = client.get(f"/v1/games/{gid}").get_json()
    seat = view["active_seats"][0]
    move = client.get(f"/v1/games/{gid}/legal-actions", headers=_bearer(tokens[seat])).get_json()["actions"][0]
    assert client.post(f"/v1/games/{gid}/actions", json=move, headers=_bearer(tokens[seat])).status_code == 201
    assert not _acts_as_seat(client, gid, game["seats"][0]["token"])


def test_a_planted_plain_organiser_hash_is_never_keyed_by_a_later_migrate(
    served: tuple[Flask, Roles], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    import psycopg

    app, owned = served
    client = app.test_client()
    token = "ot_0123456789abcdef_" + "M" * 43
    plain = hashlib.sha256(token.encode()).hexdigest()
    plant = ("INSERT INTO organisers (organiser_id, name, token_hash, created_at)"
             " VALUES ('0123456789abcdef', 'Mallory', %s, now())")
    with psycopg.connect(owned.app_url, autocommit=True) as conn, pytest.raises(psycopg.errors.CheckViolation):
        conn.execute(plant, (plain,))  # refused: a new organiser's hash is a keyed one
    # a row that got in before the database refused them (put there as 0095 found it): a routine migrate,
    # with the server's secret, leaves it as it is and names it
    _owner(owned, "ALTER TABLE organisers DROP CONSTRAINT organisers_token_hash_keyed")
    with psycopg.connect(owned.app_url, autocommit=True) as conn:
        conn.execute(plant, (plain,))
    _owner(owned, "ALTER TABLE organisers ADD CONSTRAINT organisers_token_hash_keyed"
                  " CHECK (token_hash LIKE 'k1:%') NOT VALID")
    assert client.get("/v1/organisers/me", headers=_bearer(token)).status_code == 401
    for name in ("DATABASE_URL", "CABLECAR_READ_DATABASE_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CABLECAR_SECRET_KEY", SECRET)
    assert main(["migrate", "--database-url", owned.owner_url, "--app-role", owned.app]) == 0
    said = capsys.readouterr()
    assert "0123456789abcdef" in said.out + said.err and "not keyed" in said.out + said.err
    assert _owner(owned, "SELECT token_hash FROM organisers WHERE organiser_id = '0123456789abcdef'") == [(plain,)]
    assert client.get("/v1/organisers/me", headers=_bearer(token)).status_code == 401
    assert client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "A"}, {"name": "B"}]},
                       headers=_bearer(token)).status_code == 401


class _Receiver:
    """A real HTTP receiver on 127.0.0.1 that records every POST."""

    def __init__(self) -> None:
        self.bodies: list[tuple[dict[str, str], bytes]] = []
        received = self.bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_planted_delivery_is_refused_and_no_secret_is_readable(served: tuple[Flask, Roles]) -> None:
    import psycopg

    from service.adapters.webhooks.hmac import signature_matches
    from service.bootstrap import webhook_dispatcher

    app, owned = served
    client = app.test_client()
    receiver = _Receiver()
    try:
        org = _bearer(client.post("/v1/organisers", json={"name": "Open"}).get_json()["token"])
        hook = client.post("/v1/webhooks", json={"url": receiver.url, "events": ["game.started", "game.finished"]},
                           headers=org).get_json()
        batch = client.post("/v1/batches", json={"type": "ttr-sf", "tables": [
            {"players": [{"name": "Ada"}, {"name": "Bo"}]}]}, headers=org).get_json()
        gid = batch["games"][0]["id"]
        dispatcher = webhook_dispatcher(app.extensions["cablecar"].service)
        dispatcher.scan()  # the genuine game.started delivery, not sent yet

        forged = json.dumps({"id": "forged-1", "type": "game.finished", "created_at": "2026-01-01T00:00:00.000000Z",
                             "batch_ref": None, "game": {"id": gid, "type": "ttr-sf", "status": "finished",
                                                         "batch": batch["id"], "ref": None, "players": [],
                                                         "result": {"winner": "Mallory wins"}}})
        with psycopg.connect(owned.app_url, autocommit=True) as conn:
            [(mac,)] = conn.execute("SELECT body_mac FROM webhook_deliveries WHERE webhook_id = %s",
                                    (hook["id"],)).fetchall()
            for delivery_id, event, occurrence, copied in (("forged-1", "game.finished", 0, None),
                                                           ("forged-2", "game.seat_out", 7, mac)):
                columns = "delivery_id, webhook_id, game_id, event, body, state, attempts, created_at," \
                          " next_attempt_at, occurrence"
                values = [delivery_id, hook["id"], gid, event, forged.replace("forged-1", delivery_id)]
                if copied is not None:  # a genuine delivery's MAC copied onto the forged body
                    columns += ", body_mac"
                    values.append(copied)
                marks = ", ".join(["%s"] * 5 + ["'pending'", "0", "now()", "now()", str(occurrence)]
                                  + ["%s"] * (len(values) - 5))
                conn.execute(f"INSERT INTO webhook_deliveries ({columns}) VALUES ({marks})".encode(), values)
        for _ in range(3):
            dispatcher.deliver_due()

        bodies = [body for _, body in receiver.bodies]
        assert not [b for b in bodies if b"Mallory" in b], bodies  # never POSTed, whatever its MAC
        [(headers, started)] = receiver.bodies  # the genuine one went out, signed with the secret
        assert json.loads(started)["type"] == "game.started"
        assert signature_matches(hook["secret"], started, headers["x-cablecar-signature"])
        log = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=org).get_json()["deliveries"]
        refused = {d["id"]: d for d in log if d["id"].startswith("forged")}
        assert set(refused) == {"forged-1", "forged-2"}, log
        for d in refused.values():
            assert d["state"] == "failed" and "refused" in d["last_error"], d
        # the app role reads the webhook's secret only sealed
        with psycopg.connect(owned.app_url) as conn:
            [(stored,)] = conn.execute("SELECT secret FROM webhooks WHERE webhook_id = %s", (hook["id"],)).fetchall()
        assert stored != hook["secret"] and hook["secret"] not in stored
        assert hook["secret"].removeprefix("whsec_") not in stored
    finally:
        receiver.close()

