"""service/adapters/pooled_store.py: the plain reads run in the caller, the
rest in the pool; under gevent, one connection per OS thread (not per greenlet)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from events import Stores
from events.factory import sqlite_stores
from events.recorders.event_log import EventStore
from events.records import NewEvent
from events.sql.bot_turns import SqlBotTurnIndex
from events.sql.deadlines import SqlDeadlineIndex
from events.sqlite.connection import SqliteConnections, WouldWait
from events.sqlite.database import SqliteDatabase
from events.sqlite.event_log import SqliteEventLog
from service.adapters.pooled_store import CAPABILITIES, READS, TRY_HERE, in_pool

ROOT = Path(__file__).resolve().parents[2]


class _CountingPool:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def apply(self, func: Any, args: tuple[Any, ...]) -> Any:
        self.calls.append(args[0].__name__)
        return func(*args)


def _pooled(stores: Stores, pool: _CountingPool) -> Stores:
    assert isinstance(stores.database, SqliteDatabase)
    return in_pool(stores, stores.database, pool)


def test_reads_run_in_the_caller_and_writes_in_the_pool(tmp_path: Path) -> None:
    stores = sqlite_stores(tmp_path / "s.db")
    try:
        pool = _CountingPool()
        wrapped = _pooled(stores, pool).events
        wrapped.create_game("g1", "cable-car", {}, [], "playing")
        assert wrapped.version("g1") == 0 and wrapped.get_game("g1").game_id == "g1"
        assert wrapped.load("g1") == [] and wrapped.lookup_idempotency("g1", "k") is None
        assert wrapped.wait_for_events("g1", -1, 1.0) and not wrapped.wait_for_events("g1", 0, 0.05)
        assert pool.calls == ["create_game"]
    finally:
        stores.close()


def test_a_pooled_capability_is_an_instance_of_its_interface_and_nothing_more(tmp_path: Path) -> None:
    stores = sqlite_stores(tmp_path / "s.db")
    try:
        pooled = _pooled(stores, _CountingPool())
        assert isinstance(pooled.events, EventStore) and pooled.reader is pooled.events
        assert not hasattr(pooled.events, "_database")  # the interface's methods only: no way around them
        with pytest.raises(AttributeError):
            pooled.tournaments.dialect  # noqa: B018
        assert pooled.database is stores.database and pooled.counts is not None
    finally:
        stores.close()


class _BlockedThenFreedPool(_CountingPool):
    """A pool whose call starts once ``blocker`` (another connection holding the write lock) commits."""

    def __init__(self, blocker: sqlite3.Connection) -> None:
        super().__init__()
        self.blocker = blocker

    def apply(self, func: Any, args: tuple[Any, ...]) -> Any:
        self.blocker.execute("COMMIT")
        return super().apply(func, args)


def test_an_append_runs_in_the_caller_unless_it_would_wait_for_the_write_lock(tmp_path: Path) -> None:
    stores = sqlite_stores(tmp_path / "s.db")
    try:
        _pooled(stores, _CountingPool()).events.create_game("g1", "cable-car", {}, [], "playing")
        wrapped = _pooled(stores, pool := _CountingPool()).events
        wrapped.append("g1", 0, [NewEvent("x", {"n": 1})])
        assert pool.calls == [] and wrapped.version("g1") == 1
        blocker = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # another process's writer holds the lock
        wrapped = _pooled(stores, pool := _BlockedThenFreedPool(blocker)).events
        wrapped.append("g1", 1, [NewEvent("x", {"n": 2})])
        assert pool.calls == ["append"] and wrapped.version("g1") == 2  # once: tried here, done there
        blocker.close()
    finally:
        stores.close()


def test_without_waiting_the_first_write_transaction_is_refused_untouched(tmp_path: Path) -> None:
    db = SqliteConnections(str(tmp_path / "c.db"), 5, "NORMAL")
    with db.transaction() as cur:
        cur.execute("CREATE TABLE t (n INTEGER)")
    blocker = sqlite3.connect(tmp_path / "c.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(WouldWait), db.without_waiting(), db.transaction() as cur:
            cur.execute("INSERT INTO t VALUES (1)")
        blocker.execute("COMMIT")
        with db.without_waiting():  # free: the first runs; the second waits as usual
            with db.transaction() as cur:
                cur.execute("INSERT INTO t VALUES (2)")
            with db.transaction() as cur:
                cur.execute("INSERT INTO t VALUES (3)")
        assert db.read("SELECT n FROM t ORDER BY n") == [(2,), (3,)]
        assert db.read("PRAGMA busy_timeout") == [(5000,)] and db.read("PRAGMA wal_autocheckpoint") == [(10_000,)]
    finally:
        blocker.close()
        db.close()


def test_every_read_is_a_method_of_a_capability(tmp_path: Path) -> None:
    stores = sqlite_stores(tmp_path / "s.db")
    try:
        assert set(CAPABILITIES) <= {f for f in Stores.__dataclass_fields__}
        for name in READS | TRY_HERE:
            assert any(callable(getattr(getattr(stores, c), name, None)) for c in CAPABILITIES), name
    finally:
        stores.close()


def test_what_is_tried_here_is_one_write_transaction_begun_first() -> None:
    # WouldWait is raised at the first write transaction: a call repeated in the pool must not have written
    # before it (nor call another store method that writes)
    import inspect
    import re

    found = {name: cls for cls in (SqliteEventLog, SqlBotTurnIndex, SqlDeadlineIndex) for name in TRY_HERE
             if name in vars(cls)}
    assert set(found) == TRY_HERE
    for name, cls in found.items():
        body = inspect.getsource(getattr(cls, name)).split('"""')[-1]
        assert len(re.findall(r"transaction\(", body)) == 1, name
        assert not re.search(r"self\.(?!_database\b|_transaction\b|dialect\b|_clock\b)\w+\(", body), name


def test_greenlets_of_one_thread_share_its_connection_one_at_a_time(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        from gevent import monkey; monkey.patch_all()
        import gevent
        from events.sqlite.connection import SqliteConnections
        db = SqliteConnections({str(tmp_path / "c.db")!r}, 5, "NORMAL")
        seen, order = set(), []
        def use(i):
            with db.using() as conn:
                seen.add(id(conn)); order.append(i); gevent.sleep(0.01); order.append(i)
        gevent.joinall([gevent.spawn(use, i) for i in range(3)])
        assert len(seen) == 1 and db.open_connections == 1, (seen, db.open_connections)
        assert order == [0, 0, 1, 1, 2, 2], order
        pool = gevent.get_hub().threadpool
        assert pool.apply(db.read, ("SELECT 1",)) == [(1,)] and db.open_connections == 2
        db.close()
        assert db.open_connections == 0
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
