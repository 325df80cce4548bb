"""The backends the contract suites run on, and the base of every suite.

A :class:`Backend` is one kind of database the stores run on (``sqlite``,
``postgres``, ``standby``), made afresh for each test: it opens store
instances on the test's database and runs raw SQL against it the way an
operator (or attacker) with direct database access would.

A suite of one interface is a class deriving from :class:`Contract` whose
name does not start with ``Test`` (so pytest does not collect it); each
backend it runs on is a subclass that names the backend::

    class EventStoreContract(Contract):
        def test_...(self, store: Stores) -> None: ...

    class TestEventStoreSqlite(EventStoreContract):
        backend_type = SqliteBackend

The subclass takes the backend's marks (``postgres`` for the PostgreSQL
ones, so ``-m "not postgres"`` deselects them), and its tests get the
``backend``, ``store`` (the :class:`~events.Stores` of a store instance:
its capabilities, ``store.events``, ``store.tournaments``, ...) and
``reader`` fixtures of that backend.  A test
only one backend can pass (LISTEN/NOTIFY, a row lock held from another
connection) is a method of that backend's subclass.
"""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any, ClassVar

import pytest

from events import Stores
from events.factory import postgres_stores, sqlite_stores
from events.recorders.event_log import EventReader
from tests.contract.conftest import TEST_SIGNER, create_database, drop_database, postgres_admin_url

Statement = tuple[str, tuple[Any, ...]]


class Backend(ABC):
    """One backend under test, for one test (see the module docs)."""

    #: how the backend is named in messages
    name: ClassVar[str]
    #: the marks of every test run on this backend
    marks: ClassVar[tuple[pytest.MarkDecorator, ...]] = ()

    def __init__(self, url: str) -> None:
        self.url = url
        self._stores: list[Stores] = []

    @classmethod
    @abstractmethod
    def for_test(cls, request: pytest.FixtureRequest) -> Backend:
        """The backend for the test of ``request`` (on a fresh database, or
        the session's shared one with fresh game ids)."""

    @abstractmethod
    def new_store(self, **options: Any) -> Stores:
        """A new store instance (its capabilities) on the backend's database, with ``options``."""

    @abstractmethod
    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one SQL statement directly (``?`` placeholders for every backend)."""

    @abstractmethod
    def tamper(self, *statements: Statement) -> None:
        """Run statements with the immutability triggers bypassed (as an
        attacker with owner rights would), restoring them afterwards."""

    @abstractmethod
    def own_database(self, prefix: str) -> AbstractContextManager[Backend]:
        """This backend on a migrated database no other test writes to
        (named after ``prefix`` where the backend names databases)."""

    def open(self, **options: Any) -> Stores:
        """A new store instance (its capabilities) on the backend's database (signing with
        :data:`~tests.contract.conftest.TEST_SIGNER` unless told otherwise),
        closed with the backend."""
        options.setdefault("signer", TEST_SIGNER)
        store = self.new_store(**options)
        self._stores.append(store)
        return store

    def close(self) -> None:
        """Close every store this backend opened."""
        for store in self._stores:
            store.close()

    def __repr__(self) -> str:
        return f"<{self.name} backend>"


class SqliteBackend(Backend):
    """A fresh SQLite file per test (the store migrates it itself)."""

    name = "sqlite"

    def __init__(self, path: Path) -> None:
        super().__init__(f"sqlite:///{path}")
        self.path = path

    @classmethod
    def for_test(cls, request: pytest.FixtureRequest) -> SqliteBackend:
        tmp_path: Path = request.getfixturevalue("tmp_path")
        return cls(tmp_path / "events.sqlite3")

    def new_store(self, **options: Any) -> Stores:
        return sqlite_stores(self.path, **options)

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        with sqlite3.connect(str(self.path), isolation_level=None) as conn:
            conn.execute(sql, params)

    def tamper(self, *statements: Statement) -> None:
        with sqlite3.connect(str(self.path), isolation_level=None) as conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("DROP TRIGGER events_no_update")
            conn.execute("DROP TRIGGER events_no_delete")
            for sql, params in statements:
                conn.execute(sql, params)
            for trigger, action in (("events_no_update", "UPDATE"), ("events_no_delete", "DELETE")):
                conn.execute(
                    f"CREATE TRIGGER {trigger} BEFORE {action} ON events "
                    "BEGIN SELECT RAISE(ABORT, 'events are immutable'); END"
                )
            conn.execute("COMMIT")

    def own_database(self, prefix: str) -> AbstractContextManager[Backend]:
        return nullcontext(self)  # the test's file is its own already


#: the triggers that refuse changing (events_immutable) and deleting (into quarantine only) a stored event
_POSTGRES_GUARDS = ("events_immutable", "events_leave_to_quarantine")


class PostgresBackend(Backend):
    """The test session's database on the server named by
    ``CABLECAR_TEST_DATABASE_URL`` (fresh game ids per test); skipped when
    that is unset, unless ``CI=true``, where its absence is an error."""

    name = "postgres"
    marks = (pytest.mark.postgres,)

    def __init__(self, url: str, read_url: str | None = None) -> None:
        super().__init__(url)
        self.read_url = read_url

    @classmethod
    def for_test(cls, request: pytest.FixtureRequest) -> Backend:
        return cls(request.getfixturevalue("postgres_url"))

    def new_store(self, **options: Any) -> Stores:
        return postgres_stores(self.url, read_url=self.read_url, **options)

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s").encode(), params)

    def tamper(self, *statements: Statement) -> None:
        import psycopg

        with psycopg.connect(self.url) as conn, conn.transaction():
            for trigger in _POSTGRES_GUARDS:
                conn.execute(f"ALTER TABLE events DISABLE TRIGGER {trigger}".encode())
            for sql, params in statements:
                conn.execute(sql.replace("?", "%s").encode(), params)
            for trigger in _POSTGRES_GUARDS:
                conn.execute(f"ALTER TABLE events ENABLE TRIGGER {trigger}".encode())

    def own_database(self, prefix: str) -> AbstractContextManager[Backend]:
        return _own_postgres_database(prefix)


@contextmanager
def _own_postgres_database(prefix: str) -> Iterator[Backend]:
    """A migrated database of its own on the test server, dropped afterwards."""
    admin = postgres_admin_url()
    url = create_database(admin, prefix)
    own = PostgresBackend(url)
    try:
        yield own
    finally:
        own.close()
        drop_database(admin, url)


class StandbyBackend(PostgresBackend):
    """The session's PostgreSQL database written through the primary and
    read (the stores' ``reader``) through a hot standby of the test server,
    fed by streaming replication (``tests/contract/standby.py``; skipped
    when its tools are missing, unless ``CI=true``)."""

    name = "standby"

    @classmethod
    def for_test(cls, request: pytest.FixtureRequest) -> Backend:
        return cls(request.getfixturevalue("postgres_url"), read_url=request.getfixturevalue("standby_url"))

    def own_database(self, prefix: str) -> AbstractContextManager[Backend]:
        raise NotImplementedError("no suite run on the standby needs a database of its own")


class Contract:
    """The base of every suite run per backend (see the module docs)."""

    #: the backend a subclass runs the suite on
    backend_type: ClassVar[type[Backend]]
    #: pytest's marks of a class (a subclass gets its backend's)
    pytestmark: ClassVar[list[pytest.MarkDecorator]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "backend_type" in cls.__dict__:
            cls.pytestmark = [*cls.__dict__.get("pytestmark", []), *cls.backend_type.marks]

    @pytest.fixture
    def backend(self, request: pytest.FixtureRequest) -> Iterator[Backend]:
        """The backend under test, made for this test and closed after it."""
        made = self.backend_type.for_test(request)
        yield made
        made.close()

    @pytest.fixture
    def store(self, backend: Backend) -> Stores:
        """A store instance on the backend under test: its capabilities."""
        return backend.open()

    @pytest.fixture
    def reader(self, store: Stores) -> EventReader:
        """Where ``store``'s standby-servable reads go: its event log, or (on
        the ``standby`` backend) a hot standby of its database."""
        return store.reader
