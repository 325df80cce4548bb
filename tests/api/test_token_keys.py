"""Token hashes stored before they were keyed (plain SHA-256) are keyed in
place with the server's secret by the migration that introduced keying, so
that every token in use keeps working; a database holding such hashes and
nobody to key them is refused, naming what to do.  The embedded store keys
them when the server opens it; PostgreSQL when ``cablecar migrate`` runs
with the secret.  Never again (issue 48): a plain hash put in later stays
as it is and authenticates nobody (tests/contract/test_custody_attacks.py
plants one with the app role's login)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

import events
from events.factory import migrate
from events.migrations.apply import MigrationError
from service.adapters.tokens import epoch_of, plain_hash
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth, create


def _made(app: Flask) -> tuple[dict[str, Any], dict[str, Any]]:
    client = app.test_client()
    game = create(client)
    organiser = client.post("/v1/organisers", json={"name": "Old Club"}).get_json()
    return game, organiser


def _acts(app: Flask, game: dict[str, Any], organiser: dict[str, Any]) -> None:
    client = app.test_client()
    assert client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(game["seats"][0]["token"])
                      ).status_code == 200
    assert client.post(f"/v1/games/{game['id']}/seats/99/token", headers=auth(game["host_token"])
                       ).status_code == 404  # the host may: there is just no seat 99
    assert client.get("/v1/organisers/me", headers=auth(organiser["token"])).status_code == 200
    stored = app.extensions["cablecar"].stores.events.get_game(game["id"]).metadata
    assert all(epoch_of(h) == 0 for h in [*stored["seat_token_hashes"], stored["host_token_hash"]])


def _as_before_keying(table: str, row: dict[str, Any], game: dict[str, Any], organiser: dict[str, Any]) -> None:
    """``row`` of ``table`` as a store written before keying held it: the plain SHA-256 of each token."""
    if table == "organisers":
        row["token_hash"] = plain_hash(organiser["token"])
    elif table == "games":
        metadata = json.loads(row["metadata"]) if isinstance(row["metadata"], str) else row["metadata"]
        metadata["seat_token_hashes"] = [plain_hash(s["token"]) for s in game["seats"]]
        metadata["host_token_hash"] = plain_hash(game["host_token"])
        row["metadata"] = json.dumps(metadata) if isinstance(row["metadata"], str) else metadata


#: the rows a game and an organiser are, copied into a database made before keying
COPIED = ("organisers", "games", "events")


def _copy_into_old_sqlite(path: Path, game: dict[str, Any], organiser: dict[str, Any]) -> None:
    """Replace the SQLite file at ``path`` by one made by the migrations before keying (0020) that holds
    the game and the organiser it held, with their tokens' plain hashes."""
    from events.migrations.apply import load_migrations, split_sqlite_script

    rows: dict[str, list[dict[str, Any]]] = {}
    with sqlite3.connect(path) as conn:
        conn.row_factory = sqlite3.Row
        for table in COPIED:
            rows[table] = [dict(r) for r in conn.execute(f"SELECT * FROM {table}").fetchall()]
    for leftover in path.parent.glob(path.name + "*"):
        leftover.unlink()
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, checksum text NOT NULL,"
                     " applied_at text NOT NULL)")
        for migration in load_migrations("sqlite"):
            if migration.name >= "0020":
                break
            for statement in split_sqlite_script(migration.sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00.000000Z')",
                         (migration.name, migration.checksum))
        for table in COPIED:
            columns = {r[1] for r in conn.execute(f"PRAGMA table_info({table})").fetchall()}
            for row in rows[table]:
                _as_before_keying(table, row, game, organiser)
                kept = [c for c in row if c in columns]
                conn.execute(f"INSERT INTO {table} ({', '.join(kept)}) VALUES ({', '.join('?' * len(kept))})",
                             [row[c] for c in kept])


def test_the_embedded_store_keys_old_hashes_in_the_migration_that_introduced_keying(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    app = create_app(settings)
    game, organiser = _made(app)
    app.extensions["cablecar"].stores.close()
    _copy_into_old_sqlite(tmp_path / "cablecar.sqlite3", game, organiser)
    # nobody to key them: refused, saying what to do (and nothing changed)
    with pytest.raises(MigrationError, match="CABLECAR_SECRET_KEY"):
        events.open_store(None, tmp_path)
    again = create_app(settings)  # the server, holding the install's secret: 0020 keys them, in its transaction
    try:
        _acts(again, game, organiser)
    finally:
        again.extensions["cablecar"].stores.close()
    # keyed once, never again: a plain hash put in later is left as it is, authenticating nobody
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
        conn.execute("UPDATE games SET metadata = json_set(metadata, '$.host_token_hash', ?) WHERE game_id = ?",
                     (plain_hash(game["host_token"]), game["id"]))
    assert migrate(f"sqlite:///{tmp_path / 'cablecar.sqlite3'}") == []
    later = create_app(settings)
    try:
        client = later.test_client()
        assert client.post(f"/v1/games/{game['id']}/seats/99/token", headers=auth(game["host_token"])
                           ).status_code == 401
        stored = later.extensions["cablecar"].stores.events.get_game(game["id"]).metadata
        assert stored["host_token_hash"] == plain_hash(game["host_token"])
    finally:
        later.extensions["cablecar"].stores.close()


def _copy_into_old_postgres(source: str, target: str, game: dict[str, Any], organiser: dict[str, Any]) -> None:
    """Make the empty database ``target`` what the migrations before keying (0040) leave, holding the game and
    the organiser ``source`` holds, with their tokens' plain hashes (as a superuser, no trigger firing)."""
    import psycopg

    from events.migrations.apply import load_migrations, pending

    before = [m for m in pending({}, load_migrations("postgres")) if m.name < "0040"]
    with psycopg.connect(source) as conn:
        rows = {t: [r[0] for r in conn.execute(f"SELECT row_to_json(x) FROM {t} x".encode()).fetchall()]
                for t in COPIED}
    with psycopg.connect(target, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, checksum text NOT NULL,"
                     " applied_at text NOT NULL)")
        for migration in before:
            with conn.transaction():
                conn.execute(migration.sql.encode())
                conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, 'then')",
                             (migration.name, migration.checksum))
        with conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            for table in COPIED:
                for row in rows[table]:
                    _as_before_keying(table, row, game, organiser)
                    conn.execute(f"INSERT INTO {table} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_record(NULL::{table}, %s::json)"
                                 .encode(), (json.dumps(row),))


@pytest.mark.postgres
def test_cablecar_migrate_keys_old_hashes_in_the_migration_that_introduced_keying(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cablecar.cli import main
    from events.factory import postgres_stores
    from service.adapters.signing_keys import load_server_keys
    from tests.contract.conftest import create_database, drop_database, postgres_admin_url

    admin = postgres_admin_url()
    source, url = create_database(admin, "cc_keyed"), create_database(admin, "cc_keying", migrated=False)
    settings = Settings(database_url=source, secret_key="the server's secret, 32 bytes or more",
                        data_dir=str(tmp_path), webhooks=False)
    try:
        keys = load_server_keys(Settings(data_dir=str(tmp_path)))
        app = create_app(settings, stores=postgres_stores(source, signer=keys.signer), signing_keys=keys)
        game, organiser = _made(app)
        app.extensions["cablecar"].stores.close()
        _copy_into_old_postgres(source, url, game, organiser)
        for name in ("DATABASE_URL", "CABLECAR_SECRET_KEY"):
            monkeypatch.delenv(name, raising=False)
        assert main(["migrate", "--database-url", url]) != 0
        assert "CABLECAR_SECRET_KEY" in capsys.readouterr().err  # refused, saying what to do
        monkeypatch.setenv("CABLECAR_SECRET_KEY", settings.secret_key)
        assert main(["migrate", "--database-url", url]) == 0
        assert "0040_who_may_act.sql" in capsys.readouterr().out
        served = replace(settings, database_url=url)
        again = create_app(served, stores=postgres_stores(url, signer=keys.signer), signing_keys=keys)
        try:
            _acts(again, game, organiser)
        finally:
            again.extensions["cablecar"].stores.close()
    finally:
        drop_database(admin, url)
        drop_database(admin, source)


def test_an_embedded_store_with_organisers_batches_and_webhooks_upgrades(tmp_path: Path) -> None:
    """The organisers table is rebuilt (its hash column widened) under rows that refer to it: the
    foreign keys hold at the commit, and the organiser's token keeps working."""
    from events.migrations.apply import load_migrations, split_sqlite_script

    path = tmp_path / "cablecar.sqlite3"
    token = "ot_o1_" + "B" * 43
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, checksum text NOT NULL,"
                     " applied_at text NOT NULL)")
        for migration in load_migrations("sqlite"):
            if migration.name >= "0020":
                break
            for statement in split_sqlite_script(migration.sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00.000000Z')",
                         (migration.name, migration.checksum))
        conn.execute("INSERT INTO organisers VALUES ('o1', 'Old Club', ?, '2026-01-01T00:00:00.000000Z')",
                     (plain_hash(token),))
        conn.execute("INSERT INTO batches (batch_id, organiser_id, name, game_type, tables, created_at)"
                     " VALUES ('b1', 'o1', 'Round 1', 'ttr-sf', 1, '2026-01-01T00:00:00.000000Z')")
        conn.execute("INSERT INTO webhooks (webhook_id, organiser_id, url, events, secret, from_position, active,"
                     " created_at) VALUES ('w1', 'o1', 'https://example.org/h', '[\"game.finished\"]', 's', 0, 1,"
                     " '2026-01-01T00:00:00.000000Z')")
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False))
    try:
        client = app.test_client()
        assert client.get("/v1/organisers/me", headers=auth(token)).status_code == 200
        assert client.get("/v1/batches", headers=auth(token)).status_code == 200
    finally:
        app.extensions["cablecar"].stores.close()
