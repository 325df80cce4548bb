"""Versioned migrations: applied once, in order, safely under concurrency."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from events.factory import migrate, sqlite_stores
from events.migrations.apply import (
    MigrationError,
    load_migrations,
    migrate_sqlite,
    split_sqlite_script,
)
from events.records import StoreUnavailable

#: the files before the baseline: what databases made before it ran
POSTGRES_OLD = ["0001_init.sql", "0002_append_function.sql", "0003_tournaments.sql", "0004_append_guard.sql",
                "0005_append_only_inserts.sql", "0006_deadlines.sql", "0007_delivery_occurrence.sql",
                "0008_global_log_without_lock.sql", "0009_leaner_append.sql"]
#: what a fresh database runs: the baseline, then the files after it
POSTGRES_FRESH = ["0010_baseline.sql", "0011_owner_writes.sql", "0012_signed_events.sql", "0020_bot_turns.sql",
                  "0030_one_clock.sql", "0040_who_may_act.sql",
                  "0045_quarantine.sql", "0050_transparency_log.sql", "0055_checkpoint_deliveries.sql",
                  "0060_stream_tickets.sql", "0065_bot_fairness.sql", "0070_tournament_refs.sql",
                  "0075_leaner_append.sql", "0080_logged_events_stay.sql", "0085_log_written_by_the_owner.sql",
                  "0095_tokens_and_webhooks_custody.sql"]
#: what a database made by the old files runs now
POSTGRES_UPGRADE = [name for name in POSTGRES_FRESH if "baseline" not in name]
POSTGRES = sorted(POSTGRES_OLD + POSTGRES_FRESH)
SQLITE = ["0001_init.sql", "0002_tournaments.sql", "0003_deadlines.sql", "0004_delivery_occurrence.sql",
          "0005_shared_counts.sql", "0010_signatures.sql", "0015_bot_turns.sql",
          "0020_keyed_token_hashes.sql", "0025_quarantine.sql", "0030_transparency_log.sql",
          "0035_checkpoint_deliveries.sql", "0040_stream_tickets.sql", "0045_bot_fairness.sql",
          "0050_tournament_refs.sql", "0055_logged_events_stay.sql", "0060_log_head.sql",
          "0070_tokens_and_webhooks_custody.sql"]


def run_concurrently(url: str, n: int = 4) -> list[list[str]]:
    results: list[list[str]] = []
    errors: list[BaseException] = []
    start = threading.Barrier(n)

    def run() -> None:
        start.wait()
        try:
            results.append(migrate(url))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    return results


def test_shipped_migrations_are_in_order() -> None:
    assert [m.name for m in load_migrations("postgres")] == POSTGRES
    assert [m.name for m in load_migrations("sqlite")] == SQLITE
    with pytest.raises(ValueError):
        load_migrations("mysql")


def test_sqlite_migrations_apply_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    assert migrate(url) == SQLITE
    assert migrate(url) == []
    sqlite_stores(tmp_path / "a.sqlite3").close()  # opening a store migrates too: nothing left
    with sqlite3.connect(tmp_path / "a.sqlite3") as conn:
        assert conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall() == [
            (name,) for name in SQLITE
        ]


def test_sqlite_migrations_under_concurrency(tmp_path: Path) -> None:
    results = run_concurrently(f"sqlite:///{tmp_path / 'b.sqlite3'}")
    assert sorted(name for r in results for name in r) == SQLITE


def test_a_changed_migration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    migrate(f"sqlite:///{path}")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_migrations SET checksum = 'x'")
    with pytest.raises(MigrationError, match="changed"):
        migrate(f"sqlite:///{path}")
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES ('9999_future.sql', 'y', 'now')")
        conn.execute("DELETE FROM schema_migrations WHERE name <> '9999_future.sql'")
    with pytest.raises(MigrationError, match="does not ship"):
        migrate(f"sqlite:///{path}")


def test_sqlite_script_splitting_keeps_trigger_bodies_whole() -> None:
    script = (
        "-- comment;\nCREATE TABLE t (a INTEGER);\n\n"
        "CREATE TRIGGER tr BEFORE DELETE ON t\nBEGIN\n    SELECT RAISE(ABORT, 'no;');\nEND;\n"
        "INSERT INTO t VALUES (1);\n-- trailing comment\n"
    )
    statements = split_sqlite_script(script)
    assert (
        len(statements) == 3 and statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    )
    conn = sqlite3.connect(":memory:")
    for statement in statements:
        conn.execute(statement)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("DELETE FROM t")
    with pytest.raises(MigrationError):
        split_sqlite_script("CREATE TABLE t (a INTEGER)")


def test_a_failing_sqlite_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "d.sqlite3", isolation_level=None)
    conn.execute("CREATE TABLE games (x INTEGER)")  # collides with 0001_init.sql
    with pytest.raises(MigrationError):
        migrate_sqlite(conn)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'events'").fetchall() == []
    conn.close()


def test_unsupported_urls_are_refused() -> None:
    with pytest.raises(ValueError):
        migrate("mysql://localhost/x")


@pytest.mark.postgres
def test_postgres_migrations_apply_once(fresh_postgres_url: str) -> None:
    assert migrate(fresh_postgres_url) == POSTGRES_FRESH
    assert migrate(fresh_postgres_url) == []


@pytest.mark.postgres
def test_postgres_migrations_under_concurrency(fresh_postgres_url: str) -> None:
    results = run_concurrently(fresh_postgres_url, n=6)
    assert sorted(name for r in results for name in r) == POSTGRES_FRESH
    assert migrate(fresh_postgres_url) == []


@pytest.mark.postgres
def test_postgres_drift_is_refused(fresh_postgres_url: str) -> None:
    import psycopg

    migrate(fresh_postgres_url)
    with psycopg.connect(fresh_postgres_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_migrations SET checksum = 'x'")
    with pytest.raises(MigrationError, match="changed"):
        migrate(fresh_postgres_url)


def test_an_unreachable_postgres_fails_fast() -> None:
    t0 = time.monotonic()
    with pytest.raises(StoreUnavailable):
        migrate("postgresql://cc@127.0.0.1:9/nothing?connect_timeout=2")
    assert time.monotonic() - t0 < 5


def test_the_sqlite_delivery_rebuild_keeps_deliveries_and_their_attempts(tmp_path: Path) -> None:
    """0035 rebuilds webhook_deliveries (a nullable game) on a database with foreign keys
    enforced, as every store connection has them: the rows and their attempts stay,
    and a delivery without a game must name its checkpoint, once per webhook."""
    conn = sqlite3.connect(tmp_path / "d.sqlite3", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")

    def apply(name: str) -> None:
        conn.execute("BEGIN IMMEDIATE")
        for statement in split_sqlite_script(next(m for m in load_migrations("sqlite") if m.name == name).sql):
            conn.execute(statement)
        conn.execute("COMMIT")

    for name in SQLITE[:SQLITE.index("0035_checkpoint_deliveries.sql")]:
        apply(name)
    conn.execute("INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at, metadata)"
                 " VALUES ('g', 'ttr-sf', 'active', 0, '', 't', 't', '{}')")
    conn.execute(f"INSERT INTO organisers VALUES ('o', 'Open', '{'a' * 64}', 't')")
    conn.execute("INSERT INTO webhooks (webhook_id, organiser_id, url, events, secret, from_position, created_at)"
                 " VALUES ('w', 'o', 'https://x.example/h', '[\"game.seat_out\"]', 's', 0, 't')")
    conn.execute("INSERT INTO webhook_deliveries (delivery_id, webhook_id, game_id, event, body, state, attempts,"
                 " created_at, next_attempt_at, occurrence) VALUES ('d', 'w', 'g', 'game.seat_out', '{}', 'pending',"
                 " 1, 't', 't', 5)")
    conn.execute("INSERT INTO webhook_attempts VALUES ('d', 1, 't', 500, NULL, 3)")
    apply("0035_checkpoint_deliveries.sql")
    assert conn.execute("SELECT delivery_no, delivery_id, game_id, occurrence FROM webhook_deliveries").fetchall() == [
        (1, "d", "g", 5)]
    assert conn.execute("SELECT delivery_id, attempt FROM webhook_attempts").fetchall() == [("d", 1)]
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("SELECT from_tree_size FROM webhooks").fetchall() == [(0,)]
    checkpoint = ("INSERT INTO webhook_deliveries (delivery_id, webhook_id, game_id, event, body, state, attempts,"
                  " created_at, next_attempt_at, occurrence) VALUES (?, 'w', NULL, 'log.checkpoint', '{}', 'pending',"
                  " 0, 't', 't', ?)")
    conn.execute(checkpoint, ("c1", 3))
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        conn.execute(checkpoint, ("c2", 3))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute(checkpoint, ("c3", 0))
    conn.close()
