"""Issue 48, item 6, on PostgreSQL with the two roles: key lifetimes in the log.

* The server records its keys in its own stream (``_server``) with the app
  role's login and no new grant; the app role's login alone cannot make the
  stream name a key or retire one (it has no signing key: a forged
  ``key_retired`` neither shows in ``GET /v1/keys`` nor stops the publisher).
* The database's superuser, holding a retired key that leaked, rewrites a
  finished game (players renamed, every event re-signed with that key and
  dated, with the game's ``created_at``, before the key was made): ``/audit``
  and ``cablecar verify --keys`` say NOT VALID, naming the key's creation.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from events.encoding.timestamps import format_timestamp, system_clock
from events.factory import postgres_stores
from events.integrity.envelope import GENESIS_HASH, event_hash
from events.integrity.keyset import KeySet
from events.integrity.lifetimes import KEY_ADDED, SERVER_STREAM, key_added, key_retired
from events.integrity.signing import Signer
from events.integrity.verify import verify_export
from tests.api.conftest import create, finish_setup, play_to_end
from tests.contract.test_roles import Roles, _migrated, roles  # noqa: F401  (roles: the fixture)

pytestmark = pytest.mark.postgres

#: the day the superuser's forgery is dated: before the leaked key was made
BACKDATED = "2026-01-01T00:00:00.000000Z"


@pytest.fixture
def servers(roles: Roles, tmp_path: Path) -> Iterator[list[Flask]]:  # noqa: F811
    """Servers a test makes on the app role (each closed afterwards)."""
    _migrated(roles)
    made: list[Flask] = []
    yield made
    for app in made:
        app.extensions["cablecar"].stores.close()


def _serve(roles: Roles, tmp_path: Path, servers: list[Flask], signer: Signer,  # noqa: F811
           retired: tuple[Any, ...] = ()) -> Flask:
    """A server on the app role's login, signing with ``signer``, started (its keys recorded)."""
    from service.adapters.signing_keys import ServerKeys
    from service.api.app import create_app, log_publisher
    from service.config import Settings

    settings = Settings(database_url=roles.app_url, secret_key="s" * 40, data_dir=str(tmp_path), webhooks=False)
    app = create_app(settings, stores=postgres_stores(roles.app_url, signer=signer),
                     signing_keys=ServerKeys(signer, retired))
    servers.append(app)
    log_publisher(app).run_once()
    return app


def test_the_app_role_records_the_servers_keys_but_its_login_alone_names_or_retires_none(
    roles: Roles, tmp_path: Path, servers: list[Flask]  # noqa: F811
) -> None:
    from service.api.app import log_publisher

    key = Signer.generate(format_timestamp(system_clock()))
    app = _serve(roles, tmp_path, servers, key)
    client = app.test_client()
    [listed] = client.get("/v1/keys").get_json()["keys"]
    assert listed["key_id"] == key.key_id and listed["added_seq"] == 1
    game = create(client, players=2, seed="beside-the-server")
    assert [g["id"] for g in client.get("/v1/games").get_json()["games"]] == [game["id"]]

    # the app role's login, with a key of its own: a key added and the server's key retired, as rows
    forger = postgres_stores(roles.app_url, signer=Signer.generate(format_timestamp(system_clock())))
    try:
        mallory = forger.database.signer  # type: ignore[attr-defined]
        forged = forger.events.append(SERVER_STREAM, 1, [key_added(mallory.public),
                                                          key_retired(key.public.retired(listed["created_at"]))])
        assert [e.seq for e in forged.events] == [2, 3]
    finally:
        forger.close()
    [still] = client.get("/v1/keys").get_json()["keys"]
    assert still == listed  # no retirement, no key of the forger's
    publisher = log_publisher(app).publisher
    published = publisher.publish()  # the publisher is not silenced by a forged retirement
    assert published is not None and not publisher.retired and published.key_id == key.key_id
    again = _serve(roles, tmp_path, servers, key)  # another start: the stream still names the key
    assert [e.type for e in again.extensions["cablecar"].stores.events.load(SERVER_STREAM)][:1] == [KEY_ADDED]
    assert len(again.extensions["cablecar"].stores.events.load(SERVER_STREAM)) == 3


def test_a_game_rewritten_by_the_superuser_with_a_retired_key_and_backdated_fails_the_audit(
    roles: Roles, tmp_path: Path, servers: list[Flask], monkeypatch: pytest.MonkeyPatch,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    import psycopg

    from cablecar.cli import main
    from service.adapters.signing_keys import load_server_keys, write_key_file
    from service.config import Settings

    leaked = Signer.generate(format_timestamp(system_clock()))
    before = _serve(roles, tmp_path, servers, leaked)
    client = before.test_client()
    game = create(client, players=2, seed="rewritten")
    finish_setup(client, game)
    play_to_end(client, game)
    gid = game["id"]

    # the operator rotates the leaked key away, with the server's configuration (the app role's login)
    key_file = tmp_path / "signing-key.json"
    write_key_file(key_file, leaked)
    for name in ("CABLECAR_READ_DATABASE_URL", "REDIS_URL", "CABLECAR_RETIRED_KEYS_FILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", roles.app_url)
    monkeypatch.setenv("CABLECAR_SIGNING_KEY_FILE", str(key_file))
    assert main(["keys", "rotate"]) == 0
    assert "recorded in the server's own stream (_server): seq 2 key_added" in capsys.readouterr().out
    configured = load_server_keys(Settings.from_env())
    current, [retired] = configured.signer, configured.retired
    after = _serve(roles, tmp_path, servers, current, (retired,))
    client = after.test_client()
    keys = client.get("/v1/keys").get_json()
    assert {k["key_id"]: (k["added_seq"], k["retired_seq"]) for k in keys["keys"]} == {
        leaked.key_id: (1, 3), current.key_id: (2, None)}  # the new key introduced by the old, which it retired
    assert verify_export(client.get(f"/v1/games/{gid}/export").get_json(), KeySet.from_json(keys)).ok

    # the superuser, holding the leaked key: every event renamed, dated before the key was made, re-signed
    stored = after.extensions["cablecar"].stores.events.load(gid)
    names = {"P0": "Mallory", "P1": "Eve"}
    prev, rows = GENESIS_HASH, []
    for e in stored:
        payload = _renamed(dict(e.payload), names)
        digest = event_hash(game_id=gid, seq=e.seq, type=e.type, schema_version=e.schema_version, payload=payload,
                            recorded_at=BACKDATED, seat=e.seat, idempotency_key=e.idempotency_key, prev_hash=prev)
        rows.append((_canonical(payload), BACKDATED, prev, digest, leaked.sign(digest), leaked.key_id, gid, e.seq))
        prev = digest
    admin = roles.admin_url.rsplit("/", 1)[0] + "/" + roles.database
    with psycopg.connect(admin) as conn, conn.transaction():
        conn.execute(b"ALTER TABLE events DISABLE TRIGGER events_immutable")
        conn.cursor().executemany(b"UPDATE events SET payload = %s::json, recorded_at = %s, prev_hash = %s, hash = %s,"
                                  b" signature = %s, key_id = %s WHERE game_id = %s AND seq = %s", rows)
        conn.execute(b"ALTER TABLE events ENABLE TRIGGER events_immutable")
        conn.execute(b"ALTER TABLE games DISABLE TRIGGER USER")
        conn.execute(b"UPDATE games SET last_hash = %s, created_at = %s, metadata = jsonb_set(metadata, '{players}',"
                     b" %s::jsonb) WHERE game_id = %s",
                     (prev, BACKDATED, '["Mallory", "Eve"]', gid))
        conn.execute(b"ALTER TABLE games ENABLE TRIGGER USER")

    fresh = _serve(roles, tmp_path, servers, current, (retired,)).test_client()
    audit = fresh.get(f"/v1/games/{gid}/audit").get_json()
    failed = {c["name"]: c["detail"] for c in audit["checks"] if not c["ok"]}
    assert audit["ok"] is False and list(failed) == ["signatures"], audit
    assert f"seq 1: signed by key {leaked.key_id}, recorded before that key was made" in failed["signatures"]
    export = fresh.get(f"/v1/games/{gid}/export").get_json()
    assert export["game"]["players"] == ["Mallory", "Eve"] and export["game"]["created_at"].startswith("2026-01-01")
    verdict = verify_export(export, KeySet.from_json(keys))
    assert verdict.failed and "recorded before that key was made" in str(verdict.to_json())


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def _canonical(payload: dict[str, Any]) -> str:
    from events.encoding.canonical import canonical_json

    return canonical_json(payload)

