"""Fixtures of the event-store contract suite.

There is one contract suite per interface (``test_event_store.py``,
``test_tournament_store.py``, ``test_delivery_log.py``).  Every contract test runs once per backend: ``sqlite`` (a fresh file per test)
and ``postgres`` (a database created for this test session on the server
named by ``CABLECAR_TEST_DATABASE_URL``, fresh game ids per test).  The
postgres runs are skipped when that variable is unset, unless ``CI=true``,
where its absence is an error.

Tests of the reads a standby may serve take the ``reader`` fixture (the
store's :attr:`~events.database.Database.reader`) and run on a third
backend too, ``standby``: the same PostgreSQL database written through the
primary and read through a hot standby of the test server, fed by streaming
replication (``tests/contract/standby.py``; skipped when its tools are
missing).
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from events.database import Database
from events.deliveries import AttemptOutcome, NewDelivery
from events.postgres import PostgresStore
from events.signing import Signer
from events.sqlite import SqliteStore
from events.store import EventReader, NewEvent
from events.tournaments import OrganiserRecord, WebhookRecord

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
#: The backends of the tests that take ``reader``.
READ_BACKENDS = [*BACKENDS, pytest.param("standby", marks=pytest.mark.postgres)]

#: the key the contract suite's stores sign with (the server's comes from its configuration)
TEST_SIGNER = Signer.generate("2030-01-01T00:00:00.000000Z")


def postgres_admin_url() -> str:
    """The test server URL; skips (or fails under CI=true) when unset."""
    url = os.environ.get("CABLECAR_TEST_DATABASE_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "CABLECAR_TEST_DATABASE_URL is not set but CI=true: the PostgreSQL contract tests must run "
                '(eval "$(scripts/test-services.sh up)")',
                pytrace=False,
            )
        pytest.skip('CABLECAR_TEST_DATABASE_URL is not set (eval "$(scripts/test-services.sh up)")')
    return url


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def create_database(admin_url: str, prefix: str = "cc_contract", migrated: bool = True) -> str:
    """Create a uniquely named database, migrated unless ``migrated`` is
    false (the store never migrates PostgreSQL itself); return its URL."""
    import psycopg

    from events.migrate import migrate_postgres

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"'.encode())
    url = with_database(admin_url, name)
    if migrated:
        migrate_postgres(url)
    return url


def drop_database(admin_url: str, url: str) -> None:
    """Drop the database ``url`` names (closing its sessions)."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A database of its own for this test session, migrated (the store
    never migrates PostgreSQL itself)."""
    admin = postgres_admin_url()
    url = create_database(admin)
    yield url
    drop_database(admin, url)


@pytest.fixture
def fresh_postgres_url() -> Iterator[str]:
    """An empty database for one test (migration tests)."""
    admin = postgres_admin_url()
    url = create_database(admin, "cc_migrate", migrated=False)
    yield url
    drop_database(admin, url)


class Backend:
    """One backend under test: opens store instances on the same database and
    runs raw SQL against it the way an operator (or attacker) with direct
    database access would."""

    def __init__(self, name: str, url: str, path: Path | None = None, read_url: str | None = None) -> None:
        self.name = name
        self.url = url
        self.path = path
        self.read_url = read_url
        self._stores: list[Database] = []

    def open(self, **options: Any) -> Database:
        """A new store instance on the backend's database (signing with
        :data:`TEST_SIGNER` unless told otherwise)."""
        store: Database
        options.setdefault("signer", TEST_SIGNER)
        if self.name == "sqlite":
            assert self.path is not None
            store = SqliteStore(self.path, **options)
        else:
            store = PostgresStore(self.url, read_url=self.read_url, **options)
        self._stores.append(store)
        return store

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one SQL statement directly (``?`` placeholders for both)."""
        if self.name == "sqlite":
            with sqlite3.connect(str(self.path), isolation_level=None) as conn:
                conn.execute(sql, params)
            return
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s").encode(), params)

    def tamper(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Run statements with the immutability triggers bypassed (as an
        attacker with owner rights would), restoring them afterwards."""
        if self.name == "sqlite":
            with sqlite3.connect(str(self.path), isolation_level=None) as conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("DROP TRIGGER events_no_update")
                conn.execute("DROP TRIGGER events_no_delete")
                for sql, params in statements:
                    conn.execute(sql, params)
                conn.execute(
                    "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
                    "BEGIN SELECT RAISE(ABORT, 'events are immutable'); END"
                )
                conn.execute(
                    "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
                    "BEGIN SELECT RAISE(ABORT, 'events are immutable'); END"
                )
                conn.execute("COMMIT")
            return
        import psycopg

        with psycopg.connect(self.url) as conn, conn.transaction():
            conn.execute(b"ALTER TABLE events DISABLE TRIGGER events_immutable")
            for sql, params in statements:
                conn.execute(sql.replace("?", "%s").encode(), params)
            conn.execute(b"ALTER TABLE events ENABLE TRIGGER events_immutable")

    def close(self) -> None:
        """Close every store this backend opened."""
        for store in self._stores:
            store.close()


@pytest.fixture(scope="session")
def standby_url(postgres_url: str) -> Iterator[str]:
    """The session's database on a hot standby of the test server (skipped
    when the tools to make one are missing, unless ``CI=true``)."""
    from tests.contract.standby import hot_standby, standby_tools

    tools = standby_tools(postgres_url)
    if isinstance(tools, str):
        if os.environ.get("CI") == "true":
            pytest.fail(f"no hot standby can be made for the standby contract tests: {tools}", pytrace=False)
        pytest.skip(f"no hot standby: {tools}")
    with hot_standby(postgres_url, *tools) as url:
        yield url


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test runs on each backend; tests of the standby's reads (those
    taking ``reader``) on the standby too."""
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", READ_BACKENDS if "reader" in metafunc.fixturenames else BACKENDS,
                             indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """The backend under test (see the module docs)."""
    if request.param == "sqlite":
        path = tmp_path / "events.sqlite3"
        b = Backend("sqlite", f"sqlite:///{path}", path)
    elif request.param == "standby":
        b = Backend("standby", request.getfixturevalue("postgres_url"), read_url=request.getfixturevalue("standby_url"))
    else:
        b = Backend("postgres", request.getfixturevalue("postgres_url"))
    yield b
    b.close()


@pytest.fixture
def store(backend: Backend) -> Database:
    """A store instance on the backend under test."""
    return backend.open()


@pytest.fixture
def reader(store: Database) -> EventReader:
    """Where ``store``'s standby-servable reads go: the store itself, or (on
    the ``standby`` backend) a hot standby of its database."""
    return store.reader


@pytest.fixture
def new_id() -> Callable[[], str]:
    """Fresh game ids (unique across the session's shared database)."""
    return lambda: f"g-{uuid.uuid4().hex[:16]}"


# -- tournaments and deliveries -------------------------------------------------

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
HASH = "ab" * 32


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def opening(n: int = 1) -> list[NewEvent]:
    return [NewEvent(type="set_up", payload={"i": i}) for i in range(n)]


def game_spec(
    game_id: str, batch: str | None = None
) -> tuple[str, str, dict[str, object], list[NewEvent], str]:
    metadata: dict[str, object] = {"batch": batch} if batch else {}
    return (game_id, "test-game", metadata, opening(2), "playing")


def delivery(
    webhook: WebhookRecord, game_id: str, event: str = "game.finished", body: str = "{}"
) -> NewDelivery:
    return NewDelivery(uid("d"), webhook.webhook_id, game_id, event, body)


def retry_at(when: datetime, status: int | None = 500, error: str | None = None) -> AttemptOutcome:
    return AttemptOutcome(when, "pending", status, error, 12, next_attempt_at=when + timedelta(seconds=30))


@pytest.fixture
def organiser(store: Database) -> OrganiserRecord:
    return store.create_organiser(uid("o"), "Bay Area Open", HASH)


@pytest.fixture
def hooks(store: Database, organiser: OrganiserRecord) -> Iterator[Callable[..., WebhookRecord]]:
    """Register webhooks for ``organiser``; all are deactivated at the end."""
    made: list[WebhookRecord] = []

    def make(events: tuple[str, ...] = ("game.finished",), batch_id: str | None = None) -> WebhookRecord:
        hook = store.create_webhook(
            uid("w"), organiser.organiser_id, "http://127.0.0.1:9/h", events, "s3cret", batch_id
        )
        made.append(hook)
        return hook

    yield make
    for hook in made:
        store.deactivate_webhook(hook.webhook_id)


def pending(
    store: Database, hook: WebhookRecord, game_ids: list[str], now: datetime = T0
) -> list[NewDelivery]:
    """Record one pending delivery per game for ``hook`` (cursor unchanged)."""
    made = [delivery(hook, gid) for gid in game_ids]
    cursor = store.dispatch_state().cursor
    assert store.record_deliveries(cursor, cursor, made, now)
    return made
