"""The global log under concurrency: no reader of ``read_all`` ever skips a
committed event, on every backend.

Appenders on stores of their own (so, on PostgreSQL, on connections and
transactions of their own) write batches of 1 to 3 events to games of their
own as fast as they can, while several readers tail ``read_all`` the way
the webhook dispatcher does (small pages, each continuing after the last
position it was handed).  When the appenders are done, every reader must
have been handed exactly the events of the finished log, in its order, each
once.  The readers read through the stores' ``reader``: on the ``standby``
backend, a hot standby fed by streaming replication.  A store that let positions become visible out of order (e.g. drawing
them from a sequence with no lock and reading by position: the old scheme
with its lock removed) makes some reader step past an event whose
transaction had not committed yet, and it never comes back for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from events.store import EventReader, EventStore, NewEvent, StoredEvent
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend, StandbyBackend

NewId = Callable[[], str]

APPENDERS = 8
APPENDS = 40
READERS = 3


def _append_all(backend: Backend, game_id: str, errors: list[BaseException]) -> None:
    store = backend.open()
    try:
        version = 1
        for n in range(APPENDS):
            size = 1 + n % 3
            batch = [NewEvent("tick", {"n": version + i}, 1, 0) for i in range(size)]
            store.append(game_id, version, batch)
            version += size
    except BaseException as e:  # pragma: no cover - reported by the test
        errors.append(e)


def _tail(store: EventReader, start: int, done: threading.Event, seen: list[StoredEvent]) -> None:
    after = start
    while True:
        finished = done.is_set()  # read before the page: a page read after it is complete
        page = store.read_all(after_position=after, limit=5)
        seen += page
        if page:
            after = page[-1].position
        elif finished:
            return


class GlobalLogContract(Contract):
    """No reader of the global log skips a committed event, on one backend per subclass."""

    def test_no_reader_ever_skips_a_committed_event(
        self, backend: Backend, store: EventStore, reader: EventReader, new_id: NewId
    ) -> None:
        head = reader.read_all(after_position=0, limit=10_000)
        start = head[-1].position if head else 0
        games = [new_id() for _ in range(APPENDERS)]
        for gid in games:
            store.create_game(gid, "test-game", {}, [NewEvent("started", {}, 1, None)], "playing")
        errors: list[BaseException] = []
        appenders = [threading.Thread(target=_append_all, args=(backend, gid, errors)) for gid in games]
        done = threading.Event()
        seen: list[list[StoredEvent]] = [[] for _ in range(READERS)]
        readers = [
            threading.Thread(target=_tail, args=(backend.open().reader, start, done, seen[r])) for r in range(READERS)
        ]
        for t in readers + appenders:
            t.start()
        for t in appenders:
            t.join()
        done.set()
        for t in readers:
            t.join(timeout=120)
        assert not errors
        assert not any(t.is_alive() for t in readers)

        ours = set(games)
        log = [e for e in reader.read_all(after_position=start, limit=10_000) if e.game_id in ours]
        per_game = 1 + sum(1 + n % 3 for n in range(APPENDS))
        assert len(log) == APPENDERS * per_game
        for r, handed in enumerate(seen):
            positions = [e.position for e in handed]
            assert positions == sorted(set(positions)), f"reader {r} was handed positions out of order"
            mine = [e for e in handed if e.game_id in ours]
            missed = {(e.game_id, e.seq) for e in log} - {(e.game_id, e.seq) for e in mine}
            assert not missed, f"reader {r} skipped {len(missed)} committed events"
            assert mine == log


class TestGlobalLogSqlite(GlobalLogContract):
    backend_type = SqliteBackend


class TestGlobalLogPostgres(GlobalLogContract):
    backend_type = PostgresBackend


class TestGlobalLogStandby(GlobalLogContract):
    backend_type = StandbyBackend
