"""Token hashes stored before they were keyed (plain SHA-256) are keyed in
place with the server's secret when the database is migrated, so that every
token in use keeps working; a database holding such hashes and nobody to key
them is refused, naming what to do.  The embedded store keys them when the
server opens it; PostgreSQL when ``cablecar migrate`` runs with the secret."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

import events
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


def _plain(game: dict[str, Any], organiser: dict[str, Any]) -> tuple[str, str, str]:
    """The game's metadata and the organiser's token hash as a store written before keying held them."""
    seats = [plain_hash(s["token"]) for s in game["seats"]]
    return json.dumps(seats), plain_hash(game["host_token"]), plain_hash(organiser["token"])


def _acts(app: Flask, game: dict[str, Any], organiser: dict[str, Any]) -> None:
    client = app.test_client()
    assert client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(game["seats"][0]["token"])
                      ).status_code == 200
    assert client.post(f"/v1/games/{game['id']}/seats/99/token", headers=auth(game["host_token"])
                       ).status_code == 404  # the host may: there is just no seat 99
    assert client.get("/v1/organisers/me", headers=auth(organiser["token"])).status_code == 200
    stored = app.extensions["cablecar"].stores.events.get_game(game["id"]).metadata
    assert all(epoch_of(h) == 0 for h in [*stored["seat_token_hashes"], stored["host_token_hash"]])


def test_the_embedded_store_keys_old_hashes_when_the_server_opens_it(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    app = create_app(settings)
    game, organiser = _made(app)
    app.extensions["cablecar"].stores.close()
    seats, host, organiser_hash = _plain(game, organiser)
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
        conn.execute("UPDATE games SET metadata = json_set(metadata, '$.seat_token_hashes', json(?),"
                     " '$.host_token_hash', ?) WHERE game_id = ?", (seats, host, game["id"]))
        conn.execute("UPDATE organisers SET token_hash = ?", (organiser_hash,))
    # nobody to key them: refused, saying what to do (and nothing changed)
    with pytest.raises(MigrationError, match="CABLECAR_SECRET_KEY"):
        events.open_store(None, tmp_path)
    again = create_app(settings)  # the server, holding the install's secret
    try:
        _acts(again, game, organiser)
    finally:
        again.extensions["cablecar"].stores.close()


@pytest.mark.postgres
def test_cablecar_migrate_keys_old_hashes_with_the_servers_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import psycopg

    from cablecar.cli import main
    from events.factory import postgres_stores
    from service.adapters.signing_keys import load_server_keys
    from tests.contract.conftest import create_database, drop_database, postgres_admin_url

    admin = postgres_admin_url()
    url = create_database(admin, "cc_keying")
    settings = Settings(database_url=url, secret_key="the server's secret, 32 bytes or more", data_dir=str(tmp_path),
                        webhooks=False)
    try:
        keys = load_server_keys(Settings(data_dir=str(tmp_path)))
        app = create_app(settings, stores=postgres_stores(url, signer=keys.signer), signing_keys=keys)
        game, organiser = _made(app)
        seats, host, organiser_hash = _plain(game, organiser)
        with psycopg.connect(url) as conn:  # as the owner: what a database written before keying holds
            conn.execute("UPDATE games SET metadata = jsonb_set(jsonb_set(metadata, '{seat_token_hashes}', %s::jsonb),"
                         " '{host_token_hash}', to_jsonb(%s::text)) WHERE game_id = %s", (seats, host, game["id"]))
            conn.execute("UPDATE organisers SET token_hash = %s", (organiser_hash,))
        app.extensions["cablecar"].stores.close()
        for name in ("DATABASE_URL", "CABLECAR_SECRET_KEY"):
            monkeypatch.delenv(name, raising=False)
        assert main(["migrate", "--database-url", url]) != 0
        assert "CABLECAR_SECRET_KEY" in capsys.readouterr().err  # refused, saying what to do
        monkeypatch.setenv("CABLECAR_SECRET_KEY", settings.secret_key)
        assert main(["migrate", "--database-url", url]) == 0
        again = create_app(settings, stores=postgres_stores(url, signer=keys.signer), signing_keys=keys)
        try:
            _acts(again, game, organiser)
        finally:
            again.extensions["cablecar"].stores.close()
    finally:
        drop_database(admin, url)


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
