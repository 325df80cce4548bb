"""Two PostgreSQL roles: an ordinary owner migrates, the server's app role
cannot write the log, the games or the idempotency keys but through the
owner's functions (events/migrations/roles.py, migration 0011)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from events.factory import migrate, postgres_stores
from events.migrations.apply import MIGRATE_COMMAND, SchemaNotMigrated
from events.records import AppendOptions, MetadataGuard, NewEvent, TokenChange
from tests.contract.conftest import TEST_SIGNER, keyed, postgres_admin_url, rotated
from tests.contract.test_migrations import POSTGRES_FRESH, POSTGRES_OLD, POSTGRES_UPGRADE

pytestmark = pytest.mark.postgres

ROOT_DOCS = Path(__file__).resolve().parents[2] / "docs"


@dataclass
class Roles:
    """A database owned by an ordinary role, and the server's role."""

    admin_url: str
    owner_url: str
    app_url: str
    owner: str
    app: str
    database: str


def _as(url: str, user: str, password: str, database: str) -> str:
    parts = urlsplit(url)
    netloc = f"{user}:{password}@{parts.hostname}:{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc, path=f"/{database}"))


@pytest.fixture
def roles() -> Iterator[Roles]:
    """A fresh database owned by a new non-superuser role, and a new app role
    (both dropped afterwards), made as a superuser would."""
    import psycopg

    admin = postgres_admin_url()
    tag = secrets.token_hex(4)
    owner, app, database = f"cc_owner_{tag}", f"cc_app_{tag}", f"cc_roles_{tag}"
    password = secrets.token_hex(8)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {owner} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '{password}'".encode())
        conn.execute(f"CREATE ROLE {app} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '{password}'".encode())
        conn.execute(f"CREATE DATABASE {database} OWNER {owner}".encode())
    yield Roles(admin, _as(admin, owner, password, database), _as(admin, app, password, database),
                owner, app, database)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'.encode())
        conn.execute(f"DROP ROLE IF EXISTS {app}".encode())
        conn.execute(f"DROP ROLE IF EXISTS {owner}".encode())


def _migrated(roles: Roles) -> Roles:
    assert migrate(roles.owner_url, app_role=roles.app) == POSTGRES_FRESH
    return roles


def test_the_app_role_appends_concurrent_actions_as_one_statement(roles: Roles) -> None:
    """Group commit's one statement (unnest and a call of the append function each) needs nothing the
    app role was not granted: 12 writers on its login, their appends batched."""
    import threading

    import psycopg

    _migrated(roles)
    store = postgres_stores(roles.app_url, signer=TEST_SIGNER, group_commit=1)
    games = [f"g-{secrets.token_hex(6)}" for _ in range(12)]
    errors: list[BaseException] = []
    try:
        for gid in games:
            store.events.create_game(gid, "t", {}, [NewEvent("set_up", {"i": 0})], "playing")
        start = threading.Barrier(len(games))

        def play(gid: str) -> None:
            start.wait()
            try:
                for n in range(1, 6):
                    store.events.append(gid, n, [NewEvent("tick", {"k": n}, seat=0)],
                                        AppendOptions(idempotency_key=f"k{n}"))
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        writers = [threading.Thread(target=play, args=(gid,)) for gid in games]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join(30)
        assert errors == []
        with psycopg.connect(roles.owner_url) as conn:
            counted = conn.execute("SELECT count(*), count(DISTINCT position >> 16) FROM events"
                                   " WHERE game_id = ANY(%s) AND seq > 1", (games,)).fetchone()
        assert counted is not None and counted[0] == 60 and counted[1] < 60, counted
        assert all(store.events.verify_chain(gid).ok for gid in games)
    finally:
        store.close()


def test_an_ordinary_owner_migrates_a_fresh_database_and_the_app_role_plays(roles: Roles) -> None:
    import psycopg

    with psycopg.connect(roles.owner_url) as conn:
        assert conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() == (False,)
    _migrated(roles)
    assert migrate(roles.owner_url, app_role=roles.app) == []  # again: nothing to apply, grants the same
    store = postgres_stores(roles.app_url, signer=TEST_SIGNER)
    try:
        gid = f"g-{secrets.token_hex(6)}"
        store.events.create_game(gid, "t", {"seat_token_hashes": ["a", "b"]}, [NewEvent("set_up", {"i": 0})],
                                 "playing")
        store.events.append(gid, 1, [NewEvent("tick", {"k": 1}, seat=0)],
                            AppendOptions(idempotency_key="k1", request_hash="h"))
        store.events.append(gid, 2, [NewEvent("tick", {"k": 2}), NewEvent("tick", {"k": 3})],
                            AppendOptions(guard=MetadataGuard(("seat_token_hashes", 1), "b")))
        assert store.events.append(gid, 1, [NewEvent("tick", {"k": 1}, seat=0)],
                                   AppendOptions(idempotency_key="k1")).replayed
        # cablecar_rotate_seat_token_timed
        store.events.append(gid, 4, [rotated(1)], AppendOptions(token=TokenChange(1, keyed(5))))
        assert store.events.get_game(gid).metadata["seat_token_hashes"] == ["a", keyed(5)]
        assert store.events.wait_for_events(gid, 3, 0.1)  # records a watch through cablecar_watch_game
        assert [e.seq for e in store.events.load(gid)] == [1, 2, 3, 4, 5] and store.events.verify_chain(gid).ok
        organiser = store.tournaments.create_organiser("o-" + gid, "Org", keyed(0))
        assert organiser.name == "Org"
        store.deadlines.set_deadline(gid, 4, None)
        assert store.deadlines.hold_lease("sweeper", "me", datetime.now(UTC), 5.0)
        assert store.events.read_all(0, 10)
    finally:
        store.close()


ATTACKS = [
    "INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat, prev_hash, hash)"
    " VALUES ('{g}', 9, 't', 1, '{{}}', 'x', 0, '{h}', '{h}')",
    "SELECT set_config('cablecar.appending', 'on', false);"
    " INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat, prev_hash, hash)"
    " VALUES ('{g}', 9, 't', 1, '{{}}', 'x', 0, '{h}', '{h}')",
    "INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at)"
    " VALUES ('x{g}', 't', 'playing', 0, '{h}', now(), now())",
    "UPDATE games SET version = 9, last_hash = '{h}' WHERE game_id = '{g}'",
    "DELETE FROM games WHERE game_id = '{g}'",
    "INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)"
    " VALUES ('{g}', 'k2', 'h', 1, 1, now())",
    "UPDATE idempotency_keys SET request_hash = 'forged' WHERE game_id = '{g}'",
    "DELETE FROM idempotency_keys WHERE game_id = '{g}'",
    "UPDATE events SET payload = '{{}}' WHERE game_id = '{g}'",
    "DELETE FROM events WHERE game_id = '{g}'",
    "ALTER TABLE events DISABLE TRIGGER events_immutable",
    "ALTER TABLE events DISABLE TRIGGER ALL",
    "TRUNCATE events",
    "TRUNCATE games CASCADE",
    "TRUNCATE idempotency_keys",
    "CREATE FUNCTION public.cablecar_forge() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    "CREATE TABLE public.forged (x int)",
    "SELECT version FROM games WHERE game_id = '{g}' FOR UPDATE",
    "ALTER FUNCTION cablecar_create_game(text, text, text, timestamptz, text, text, text[], integer[], integer[],"
    " text[], text[], text[], text) SECURITY INVOKER",
    # the append without the clock check of migration 0030 (a time the database never vouched for)
    "SELECT cablecar_append_one('{g}', 2, NULL, NULL, NULL, '2000-01-01T00:00:00.000000Z', 't', 1, '{{}}', NULL,"
    " 'x', 'y', NULL, NULL, 'h', 'sig', 'k')",
]


def test_every_direct_write_by_the_app_role_is_refused(roles: Roles) -> None:
    import psycopg

    _migrated(roles)
    store = postgres_stores(roles.app_url, signer=TEST_SIGNER)
    gid = f"g-{secrets.token_hex(6)}"
    try:
        store.events.create_game(gid, "t", {}, [NewEvent("set_up", {})], "playing")
        store.events.append(gid, 1, [NewEvent("tick", {})], AppendOptions(idempotency_key="k1", request_hash="h"))
    finally:
        store.close()
    refused = []
    with psycopg.connect(roles.app_url, autocommit=True) as conn:
        for attack in ATTACKS:
            sql = attack.format(g=gid, h="0" * 64)
            try:
                with conn.transaction():
                    for statement in sql.split("; "):
                        conn.execute(statement.encode())
            except psycopg.errors.InsufficientPrivilege:
                refused.append(attack)
    assert refused == ATTACKS
    with psycopg.connect(roles.owner_url) as conn:
        assert conn.execute("SELECT count(*) FROM events WHERE game_id = %s", (gid,)).fetchone() == (2,)
        assert conn.execute("SELECT count(*) FROM idempotency_keys WHERE game_id = %s", (gid,)).fetchone() == (1,)


def test_the_owner_functions_are_not_executable_by_other_roles(roles: Roles) -> None:
    import psycopg

    _migrated(roles)
    with psycopg.connect(roles.admin_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {roles.app}_other LOGIN PASSWORD 'x'".encode())
    try:
        other = urlunsplit(urlsplit(roles.app_url)._replace(
            netloc=f"{roles.app}_other:x@{urlsplit(roles.app_url).hostname}:{urlsplit(roles.app_url).port}"))
        with psycopg.connect(other, autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT cablecar_create_game('x', 't', 'playing', now(), '{}', 'x', '{}', '{}', '{}', "
                         "'{}', '{}', '{}', NULL)")
    finally:
        with psycopg.connect(roles.admin_url, autocommit=True) as conn:
            conn.execute(f"DROP ROLE {roles.app}_other".encode())


def test_an_unsafe_app_role_is_refused(roles: Roles) -> None:
    from events.migrations.roles import RoleError

    with pytest.raises(RoleError, match="owner"):
        migrate(roles.owner_url, app_role=roles.owner)
    with pytest.raises(RoleError, match="does not exist"):
        migrate(roles.owner_url, app_role="cc_nobody_here")


def test_the_server_never_migrates_and_says_what_to_run(roles: Roles) -> None:
    store = postgres_stores(roles.app_url, signer=TEST_SIGNER)
    try:
        with pytest.raises(SchemaNotMigrated, match="cablecar migrate"):
            store.ping()
        with pytest.raises(SchemaNotMigrated):  # the answer is kept a moment: no query storm
            store.events.version("g-x")
    finally:
        store.close()
    assert MIGRATE_COMMAND.startswith("cablecar migrate --database-url OWNER_URL --app-role")
    _migrated(roles)
    store = postgres_stores(roles.app_url, signer=TEST_SIGNER)
    try:
        store.ping()
    finally:
        store.close()


def _fingerprint(url: str) -> dict[str, list[tuple[object, ...]]]:
    """What the schema holds, as comparable rows."""
    import psycopg

    queries = {
        "columns": "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity"
                   " FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2",
        "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
                       " WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
        "indexes": "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1",
        "triggers": "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1",
        "functions": "SELECT p.oid::regprocedure::text, p.prosrc, p.proconfig, p.prosecdef, p.proacl::text"
                     " FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace ORDER BY 1",
        "tables": "SELECT relname, relkind, relpersistence FROM pg_class"
                  " WHERE relnamespace = 'public'::regnamespace ORDER BY 1",
    }
    with psycopg.connect(url) as conn:
        found = {name: conn.execute(sql.encode()).fetchall() for name, sql in queries.items()}
    # the ACLs name the roles, which differ between the two databases (grants are tested above)
    found["functions"] = [row[:4] for row in found["functions"]]
    return found


def test_a_database_made_by_the_old_files_ends_up_like_a_fresh_one(roles: Roles) -> None:
    """An existing database (migrated 0001-0009 by a superuser, as before) gets
    0011 onwards, never the baseline, and ends with the schema a fresh one
    gets from the baseline."""
    import psycopg

    from tests.contract.conftest import create_database, drop_database

    old = create_database(roles.admin_url, "cc_old", migrated=False)
    try:
        folder = resources.files("events").joinpath("migrations", "postgres")
        with psycopg.connect(old, autocommit=True) as conn:
            conn.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, checksum text NOT NULL,"
                         " applied_at text NOT NULL)")
            import hashlib

            for name in POSTGRES_OLD:
                text = folder.joinpath(name).read_text(encoding="utf-8")
                with conn.transaction():
                    conn.execute(text.encode())
                    conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, 'then')",
                                 (name, hashlib.sha256(text.encode()).hexdigest()))
        assert migrate(old) == POSTGRES_UPGRADE
        _migrated(roles)
        assert _fingerprint(old) == _fingerprint(roles.owner_url)
    finally:
        drop_database(roles.admin_url, old)


def test_health_is_503_naming_the_command_and_the_log_says_it_once(
    roles: Roles, tmp_path: object, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    from service.api.app import create_app
    from service.config import Settings

    settings = Settings(database_url=roles.app_url, secret_key="k" * 32, data_dir=str(tmp_path))
    from service.adapters.signing_keys import ServerKeys

    app = create_app(settings, stores=postgres_stores(roles.app_url, signer=TEST_SIGNER),
                     signing_keys=ServerKeys(TEST_SIGNER))
    try:
        client = app.test_client()
        with caplog.at_level(logging.INFO):
            answers = [client.get("/v1/health") for _ in range(5)]
            import time

            time.sleep(2.2)  # past the re-check interval: asked again, still not said again
            answers.append(client.get("/v1/health"))
        assert {a.status_code for a in answers} == {503}
        assert "cablecar migrate" in answers[0].get_json()["store"]["detail"]
        said = [r for r in caplog.records if "cablecar migrate" in r.getMessage()]
        assert len(said) == 1
        _migrated(roles)
        time.sleep(2.1)
        assert client.get("/v1/health").status_code == 200
    finally:
        app.extensions["cablecar"].stores.close()


def test_an_old_superuser_owned_database_moves_to_the_two_roles_as_documented(roles: Roles) -> None:
    """docs/two-roles-upgrade.md: its SQL, run as the superuser on a database
    the old files made (holding an unsigned game), then `migrate --app-role`
    as the new owner; the app role appends signed events after the old ones."""
    import hashlib
    import re

    import psycopg

    from events.integrity.envelope import GENESIS_HASH, event_hash
    from events.integrity.keyset import KeySet, first_bad_signature
    from tests.contract.conftest import create_database, drop_database, with_database

    old = create_database(roles.admin_url, "cc_upgrade", migrated=False)
    name = urlsplit(old).path.lstrip("/")
    try:
        folder = resources.files("events").joinpath("migrations", "postgres")
        digest = event_hash(game_id="old-game", seq=1, type="set_up", schema_version=1, payload={},
                            recorded_at="2025-01-01T00:00:00.000000Z", seat=None, idempotency_key=None,
                            prev_hash=GENESIS_HASH)
        with psycopg.connect(old, autocommit=True) as conn:
            conn.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, checksum text NOT NULL,"
                         " applied_at text NOT NULL)")
            for migration in POSTGRES_OLD:
                text = folder.joinpath(migration).read_text(encoding="utf-8")
                with conn.transaction():
                    conn.execute(text.encode())
                    conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, 'then')",
                                 (migration, hashlib.sha256(text.encode()).hexdigest()))
            with conn.transaction():
                conn.execute("INSERT INTO games (game_id, game_type, status, version, last_hash, created_at,"
                             " updated_at) VALUES ('old-game', 't', 'playing', 1, %s, now(), now())", (digest,))
                conn.execute("SELECT set_config('cablecar.appending', 'on', true)")
                conn.execute("INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat,"
                             " prev_hash, hash) VALUES ('old-game', 1, 'set_up', 1, '{}',"
                             " '2025-01-01T00:00:00.000000Z', NULL, %s, %s)", (GENESIS_HASH, digest))
        page = (ROOT_DOCS / "two-roles-upgrade.md").read_text(encoding="utf-8")
        [sql] = re.findall(r"^```sql\n(.*?)^```$", page, flags=re.M | re.S)
        sql = (sql.replace("cablecar_owner", roles.owner).replace("cablecar_app", roles.app)
               .replace("DATABASE cablecar", f"DATABASE {name}").replace("'OWNER_PASSWORD'", "'x'")
               .replace("'APP_PASSWORD'", "'x'"))
        sql = re.sub(r"CREATE ROLE \w+ LOGIN PASSWORD 'x';\n", "", sql)  # the fixture made them
        with psycopg.connect(old, autocommit=True) as conn:
            conn.execute(sql.encode())
        owner_url = with_database(roles.owner_url, name)
        app_url = with_database(roles.app_url, name)
        assert migrate(owner_url, app_role=roles.app) == POSTGRES_UPGRADE
        store = postgres_stores(app_url, signer=TEST_SIGNER)
        try:
            store.events.get_game("old-game")
            store.events.append("old-game", 1, [NewEvent("tick", {"k": 1})])
            events = store.events.load("old-game")
            assert [e.signature is None for e in events] == [True, False] and store.events.verify_chain("old-game").ok
            assert first_bad_signature(events, KeySet([TEST_SIGNER.public])) is None
        finally:
            store.close()
    finally:
        drop_database(roles.admin_url, old)


def test_a_server_started_before_migrate_says_so_once_per_worker_then_comes_up(
    roles: Roles, tmp_path: Path
) -> None:
    """gunicorn as the app role on an empty database: the sweeper (every 0.2 s)
    and the webhook dispatcher of each worker do not repeat the store's one
    line; after `cablecar migrate` the same processes answer 200."""
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    from events.integrity.signing import Signer
    from service.adapters.signing_keys import write_key_file
    from service.config import SETTINGS

    root = ROOT_DOCS.parent
    key = tmp_path / "signing-key.json"
    write_key_file(key, Signer.generate())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in {s.env for s in SETTINGS}}
    env.update(PYTHONPATH=str(root), DATABASE_URL=roles.app_url, CABLECAR_SECRET_KEY="k" * 32,
               CABLECAR_SIGNING_KEY_FILE=str(key), CABLECAR_DATA_DIR=str(tmp_path / "data"),
               CABLECAR_TIMEOUT_SWEEP_SECONDS="0.2", CABLECAR_WORKERS="2", CABLECAR_BIND=f"127.0.0.1:{port}")
    log = tmp_path / "server.log"

    def health() -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=2) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()
        except OSError:
            return 0, ""

    with log.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf",
                                   "service.serving.wsgi:app"], cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while health()[0] != 503 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(3)  # fifteen sweeps per worker, and the dispatchers' passes
        status, body = health()
        assert status == 503 and "cablecar migrate" in body, body
        said = [line for line in log.read_text().splitlines() if "cablecar migrate" in line]
        assert 1 <= len(said) <= 2, said  # once per worker process, whatever the sweeps
        _migrated(roles)
        deadline = time.monotonic() + 45  # a re-check every 2 s per worker; a loaded machine is slow
        in_a_row = 0  # each worker re-checks on its own: one 200 may come from the first one up
        while in_a_row < 8 and time.monotonic() < deadline:
            in_a_row = in_a_row + 1 if health()[0] == 200 else 0
            time.sleep(0.1)
        assert in_a_row >= 8 and health()[0] == 200, (health(), log.read_text()[-3000:])
    finally:
        server.terminate()
        server.wait(timeout=30)
