"""Issue 34 on the two PostgreSQL roles: holding the app role's credentials
is enough to append a row with a forged signature through the append
function; that game is then served up to its last good event and refuses
writes, the app role cannot move the bad tail aside (no grant), and the
owner's ``cablecar quarantine`` does, after which the game plays on."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cablecar.cli import main
from events.factory import postgres_stores
from events.integrity.signing import Signer
from events.records import NewEvent
from tests.contract.conftest import TEST_SIGNER
from tests.contract.test_roles import Roles, _migrated, roles  # noqa: F401  (roles: the fixture)

pytestmark = pytest.mark.postgres


def _owner_rows(roles: Roles, sql: str, *params: Any) -> list[tuple[Any, ...]]:  # noqa: F811 (roles: the fixture)
    import psycopg

    with psycopg.connect(roles.owner_url) as conn:
        return [tuple(r) for r in conn.execute(sql.encode(), params).fetchall()]


def test_a_forgery_by_the_app_role_is_contained_and_only_the_owner_quarantines_it(
    roles: Roles, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],  # noqa: F811
) -> None:
    import psycopg

    from service.adapters.signing_keys import ServerKeys, write_key_file
    from service.api.app import create_app
    from service.config import Settings

    _migrated(roles)
    settings = Settings(database_url=roles.app_url, secret_key="k" * 32, data_dir=str(tmp_path), webhooks=False)
    app = create_app(settings, stores=postgres_stores(roles.app_url, signer=TEST_SIGNER),
                     signing_keys=ServerKeys(TEST_SIGNER))
    forger = postgres_stores(roles.app_url, signer=Signer.generate())  # the app role's credentials, not the key
    try:
        client = app.test_client()
        created = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "A"}, {"name": "B"}]})
        game = created.get_json()
        gid, version = game["id"], game["version"]
        token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        forger.events.append(gid, version, [NewEvent("card_drawn", {"source": "deck", "card": "red"}, seat=0)])

        shown = client.get(f"/v1/games/{gid}", headers=token).get_json()
        assert shown["damaged_from"] == version + 1 and shown["version"] == version, shown
        refused = client.post(f"/v1/games/{gid}/actions", json={"type": "draw_tickets"}, headers=token)
        assert refused.status_code == 409 and refused.get_json()["code"] == "game_damaged"
        assert client.get(f"/v1/games/{gid}/audit").get_json()["damaged_from"] == version + 1

        # the app role may neither run the quarantine nor do its writes by hand
        key_file = tmp_path / "signing-key.json"
        write_key_file(key_file, TEST_SIGNER)
        for name in ("DATABASE_URL", "CABLECAR_READ_DATABASE_URL", "REDIS_URL", "CABLECAR_RETIRED_KEYS_FILE"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("CABLECAR_SIGNING_KEY_FILE", str(key_file))
        assert main(["quarantine", gid, "--database-url", roles.app_url]) == 1
        assert "permission denied: run it as the database owner" in capsys.readouterr().err
        with psycopg.connect(roles.app_url, autocommit=True) as conn:
            for attack in (f"DELETE FROM events WHERE game_id = '{gid}' AND seq = {version + 1}",
                           "INSERT INTO quarantined_events (game_id, seq, position, type, schema_version, payload,"
                           f" recorded_at, prev_hash, hash, from_seq, quarantined_at, reason) SELECT game_id, seq,"
                           " position, type, schema_version, payload::text, recorded_at, prev_hash, hash, seq, now(),"
                           f" 'x' FROM events WHERE game_id = '{gid}'"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(attack.encode())
        assert _owner_rows(roles, "SELECT count(*) FROM quarantined_events") == [(0,)]
        # not even the owner deletes an event that was not put in quarantine first
        with psycopg.connect(roles.owner_url) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
            conn.execute(f"DELETE FROM events WHERE game_id = '{gid}' AND seq = {version + 1}".encode())

        assert main(["quarantine", gid, "--database-url", roles.owner_url, "--reason", "forged signature"]) == 0
        assert f"moved 1 event(s) from seq {version + 1}" in capsys.readouterr().out
        assert _owner_rows(roles, "SELECT seq, reason, key_id FROM quarantined_events") == [
            (version + 1, "forged signature", forger.database.signer.key_id)]  # type: ignore[attr-defined]

        verdict = client.get(f"/v1/games/{gid}/audit").get_json()
        assert verdict["ok"] is True and verdict["quarantined"][0]["count"] == 1, verdict
        move = client.get(f"/v1/games/{gid}/legal-actions", headers=token).get_json()["actions"][0]
        assert client.post(f"/v1/games/{gid}/actions", json=move, headers=token).status_code == 201
        assert "damaged_from" not in client.get(f"/v1/games/{gid}").get_json()
    finally:
        forger.close()
        app.extensions["cablecar"].stores.close()


def test_the_owner_cannot_quarantine_an_event_the_log_holds(
    roles: Roles, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],  # noqa: F811
) -> None:
    """Issue 48, item 1, on the two roles: the server (app role) publishes its log; the owner garbles a logged
    event's signature past the append-only trigger and runs ``cablecar quarantine``: refused, naming the
    checkpoint, nothing moved, the winner as it was, and ``/audit`` says damaged and log-attested."""
    import psycopg

    from service.adapters.signing_keys import ServerKeys, write_key_file
    from service.api.app import create_app, log_publisher
    from service.config import Settings

    _migrated(roles)
    settings = Settings(database_url=roles.app_url, secret_key="k" * 32, data_dir=str(tmp_path), webhooks=False,
                        log_origin="games.example.org/log")
    app = create_app(settings, stores=postgres_stores(roles.app_url, signer=TEST_SIGNER),
                     signing_keys=ServerKeys(TEST_SIGNER))
    try:
        client = app.test_client()
        game = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "A"}, {"name": "B"}]}).get_json()
        gid = game["id"]
        ended = client.post(f"/v1/games/{gid}/actions", json={"type": "resign"},
                            headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
        assert ended.status_code == 201, ended.get_json()
        version = ended.get_json()["version"]
        publisher, deadline = log_publisher(app).publisher, time.monotonic() + 10
        while publisher.publish() is not None or client.get(f"/v1/games/{gid}/inclusion").status_code != 200:
            assert time.monotonic() < deadline, "the publisher did not catch up with the log"
            time.sleep(0.02)
        size = client.get("/v1/log/checkpoint").get_json()["tree_size"]

        with psycopg.connect(roles.owner_url) as conn, conn.transaction():
            conn.execute(b"ALTER TABLE events DISABLE TRIGGER events_immutable")
            conn.execute(b"UPDATE events SET signature = 'AAAA' WHERE game_id = %s AND seq = %s", (gid, version))
            conn.execute(b"ALTER TABLE events ENABLE TRIGGER events_immutable")
        key_file = tmp_path / "signing-key.json"
        write_key_file(key_file, TEST_SIGNER)
        for name in ("DATABASE_URL", "CABLECAR_READ_DATABASE_URL", "REDIS_URL", "CABLECAR_RETIRED_KEYS_FILE"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("CABLECAR_SIGNING_KEY_FILE", str(key_file))
        assert main(["quarantine", gid, "--database-url", roles.owner_url]) == 1
        said = capsys.readouterr().err
        assert f"seq {version} is leaf" in said and "checkpoint games.example.org/log of tree size" in said, said
        assert _owner_rows(roles, "SELECT count(*) FROM quarantined_events") == [(0,)]
        assert _owner_rows(roles, "SELECT status, version FROM games WHERE game_id = %s", gid) == [
            ("finished", version)]
        with psycopg.connect(roles.app_url, autocommit=True) as conn, \
                pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(b"DELETE FROM events WHERE game_id = %s AND seq = %s", (gid, version))

        audit = client.get(f"/v1/games/{gid}/audit").get_json()
        assert audit["verdict"] == "damaged_attested" and audit["damaged_from"] == version, [(c["name"], c["detail"]) for c in audit["checks"]]
        assert f"tree of {size} leaves" in next(c for c in audit["checks"] if c["name"] == "inclusion")["detail"]
        other = create_app(settings, stores=postgres_stores(roles.app_url, signer=TEST_SIGNER),
                           signing_keys=ServerKeys(TEST_SIGNER))  # a worker that never held the game
        try:
            export = other.test_client().get(f"/v1/games/{gid}/export").get_json()
            assert export["result"]["winners"] == [1] and export["damaged_from"] == version, export
        finally:
            other.extensions["cablecar"].stores.close()
    finally:
        app.extensions["cablecar"].stores.close()
