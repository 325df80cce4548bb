"""Choosing the backend from a URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from events import DEFAULT_SQLITE_NAME, Stores, open_store
from events.postgres.database import PostgresDatabase
from events.sqlite.database import SqliteDatabase


def test_no_url_means_a_sqlite_file_in_the_data_dir(tmp_path: Path) -> None:
    store = open_store(None, tmp_path / "fresh" / "data")
    try:
        assert isinstance(store, Stores) and isinstance(store.database, SqliteDatabase)
        assert Path(store.database.path) == tmp_path / "fresh" / "data" / DEFAULT_SQLITE_NAME
        assert Path(store.database.path).exists()
        store.ping()
    finally:
        store.close()


def test_sqlite_urls_name_the_file(tmp_path: Path) -> None:
    target = tmp_path / "nested" / "events.db"
    store = open_store(f"sqlite:///{target}")
    try:
        assert isinstance(store.database, SqliteDatabase) and Path(store.database.path) == target and target.exists()
    finally:
        store.close()


@pytest.mark.parametrize("url", ["postgresql://cc@127.0.0.1:9/x", "postgres://cc@127.0.0.1:9/x"])
def test_postgres_urls_open_the_postgres_store_without_connecting(url: str) -> None:
    store = open_store(url)
    try:
        assert isinstance(store, Stores) and isinstance(store.database, PostgresDatabase)
    finally:
        store.close()


@pytest.mark.parametrize("url", ["mysql://x/y", "sqlite://relative.db", "events.db"])
def test_other_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError):
        open_store(url)


def test_a_read_replica_needs_postgresql_on_both_sides(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs PostgreSQL"):
        open_store(None, tmp_path, read_url="postgresql://cc@127.0.0.1:9/x")
    with pytest.raises(ValueError, match="needs PostgreSQL"):
        open_store("postgresql://cc@127.0.0.1:9/x", read_url="sqlite:///elsewhere.db")
    store = open_store("postgresql://cc@127.0.0.1:9/x", read_url="postgresql://cc@127.0.0.1:10/x")
    try:
        assert store.reader is not store.events
    finally:
        store.close()
    plain = open_store("postgresql://cc@127.0.0.1:9/x")
    try:
        assert plain.reader is plain.events  # the single-host default: every read on DATABASE_URL
    finally:
        plain.close()
