"""Waiting for a game's events (:meth:`~events.recorders.event_log.EventStore.wait_for_events`),
run against every backend (see conftest.py), and PostgreSQL's notifications."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from events import Stores
from events.records import GameNotFound
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import TEST_SIGNER, ev, started

NewId = Callable[[], str]


def test_notification_payloads_parse() -> None:
    from events.postgres.listener import parse_notification

    assert parse_notification("12 g-1") == ("g-1", 12)
    assert parse_notification("3 id with spaces") == ("id with spaces", 3)
    for bad in ("", "12", "x g", "-1 g", "12 "):
        assert parse_notification(bad) is None


class WaitingContract(Contract):
    """Waiters woken by another store instance's appends, on one backend per subclass."""

    def test_wait_for_events_is_woken_by_another_store_instance(
        self, backend: Backend, store: Stores, new_id: NewId
    ) -> None:
        gid = new_id()
        started(gid, store.events)
        writer = backend.open()
        assert store.events.wait_for_events(gid, 0, timeout=5.0)  # already there
        t0 = time.monotonic()
        assert not store.events.wait_for_events(gid, 1, timeout=0.3)
        assert 0.25 <= time.monotonic() - t0 < 3.0
        woke: list[tuple[bool, float]] = []

        def waiter() -> None:
            t = time.monotonic()
            woke.append((store.events.wait_for_events(gid, 1, timeout=20.0), time.monotonic() - t))

        thread = threading.Thread(target=waiter)
        thread.start()
        time.sleep(0.3)
        writer.events.append(gid, 1, [ev()])
        thread.join(timeout=25.0)
        assert woke and woke[0][0] is True
        assert woke[0][1] < 1.5  # a wake-up, not the 20 s timeout nor the slow fallback poll
        with pytest.raises(GameNotFound):
            store.events.wait_for_events(new_id(), 0, timeout=0.1)

    def test_many_waiters_wake_together(self, backend: Backend, store: Stores, new_id: NewId) -> None:
        gid, other = new_id(), new_id()
        started(gid, store.events)
        started(other, store.events)
        results: dict[int, bool] = {}

        def wait(i: int) -> None:
            results[i] = store.events.wait_for_events(gid if i < 3 else other, 1, timeout=10.0)

        threads = [threading.Thread(target=wait, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        t0 = time.monotonic()
        backend.open().events.append(gid, 1, [ev()])
        for t in threads[:3]:
            t.join(timeout=10.0)
        assert time.monotonic() - t0 < 2.0
        assert results == {0: True, 1: True, 2: True}  # the waiter on the other game still waits
        backend.open().events.append(other, 1, [ev()])
        threads[3].join(timeout=10.0)
        assert results[3] is True


class TestWaitingSqlite(WaitingContract):
    backend_type = SqliteBackend


class TestWaitingPostgres(WaitingContract):
    """LISTEN/NOTIFY is PostgreSQL's."""

    backend_type = PostgresBackend

    def test_postgres_waits_fall_back_to_polling_without_notifications(
        self, backend: Backend, new_id: NewId
    ) -> None:
        from events.factory import postgres_stores

        store = postgres_stores(backend.url, fallback_poll=0.3, signer=TEST_SIGNER)
        writer = backend.open()
        gid = new_id()
        try:
            started(gid, writer.events)
            assert not store.events.wait_for_events(gid, 1, timeout=0.1)  # the listener is up
            # no NOTIFY for this game any more: the listener believes it is still recorded as watched
            backend.execute("DELETE FROM game_watches WHERE game_id = ?", (gid,))
            threading.Timer(0.2, lambda: writer.events.append(gid, 1, [ev()])).start()
            t0 = time.monotonic()
            assert store.events.wait_for_events(gid, 1, timeout=10.0)
            assert time.monotonic() - t0 < 2.0
        finally:
            store.close()

    def test_postgres_notifies_only_for_watched_games(self, backend: Backend, new_id: NewId) -> None:
        """Notifying commits are serialised by PostgreSQL, so appends NOTIFY only
        for games a listener recorded in game_watches (migration 0008)."""
        import psycopg

        from events.factory import postgres_stores

        waiter = postgres_stores(backend.url, signer=TEST_SIGNER)
        writer = backend.open()
        quiet, watched = new_id(), new_id()
        started(quiet, writer.events)
        started(watched, writer.events)
        with psycopg.connect(backend.url, autocommit=True) as spy:
            spy.execute("LISTEN cablecar_events")
            try:
                # records the game (once its listener is up: on a loaded machine that can take more than one try)
                deadline = time.monotonic() + 10.0
                while True:
                    assert not waiter.events.wait_for_events(watched, 1, timeout=0.2)
                    recorded = spy.execute("SELECT count(*) FROM game_watches WHERE game_id = %s", (watched,))
                    if recorded.fetchone() == (1,) or time.monotonic() > deadline:
                        break
                writer.events.append(quiet, 1, [ev()])
                writer.events.append(watched, 1, [ev()])
                heard = [n.payload for n in spy.notifies(timeout=1.0, stop_after=2)]
                assert heard == [f"2 {watched}"]
            finally:
                waiter.close()
            rows = spy.execute("SELECT count(*) FROM game_watches WHERE game_id = %s", (watched,)).fetchone()
            assert rows == (0,)  # a closing listener deletes its rows
