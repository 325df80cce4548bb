"""The :class:`~events.recorders.event_log.EventReader` contract (the reads a standby may
serve: checking a chain, paging a game, listing games, the global log, and
no reader of ``read_all`` ever skipping a committed event), run against
every backend and, on the ``standby`` backend, through a hot standby fed by
streaming replication (see conftest.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from events import Stores
from events.integrity.envelope import event_hash
from events.recorders.event_log import EventReader, EventStore
from events.records import ChainReport, InvalidCursor, NewEvent, StoredEvent
from tests.contract.backends import (
    Backend,
    Contract,
    PostgresBackend,
    SqliteBackend,
    StandbyBackend,
    Statement,
)
from tests.contract.conftest import ev, started

NewId = Callable[[], str]


def chain_of_five(store: EventStore, gid: str) -> list[StoredEvent]:
    started(gid, store)
    store.append(gid, 1, [ev(k=2), ev(k=3)])
    store.append(gid, 3, [ev(k=4)])
    store.append(gid, 4, [ev(k=5)])
    events = store.load(gid)
    assert store.verify_chain(gid).ok and store.verify_chain(gid).checked == 5
    return events


def tampered(
    backend: Backend, store: EventStore, reader: EventReader, gid: str, *statements: Statement
) -> ChainReport:
    """Write ``gid``'s chain of five, run ``statements`` past the triggers,
    and check the chain through ``reader``."""
    chain_of_five(store, gid)
    backend.tamper(*statements)
    return reader.verify_chain(gid)


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
            store.events.append(game_id, version, batch)
            version += size
    except BaseException as e:  # pragma: no cover - reported by the test
        errors.append(e)


def _tail(store: EventReader, start: int, done: threading.Event, seen: list[StoredEvent], limit: int = 5) -> None:
    """Hand ``seen`` the global log after ``start``, page by page, until a
    page read after ``done`` was set comes back empty."""
    after = start
    while True:
        finished = done.is_set()  # read before the page: a page read after it is complete
        page = store.read_all(after_position=after, limit=limit)
        seen += page
        if page:
            after = page[-1].position
        elif finished:
            return


class EventReaderContract(Contract):
    """Reading what ``store`` wrote through ``reader``, on one backend per subclass."""

    # -- verify_chain ----------------------------------------------------------------

    def test_verify_chain_catches_an_edited_event(
        self, backend: Backend, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        gid = new_id()
        report = tampered(backend, store.events, reader, gid, (
            "UPDATE events SET payload = '{\"k\":30}' WHERE game_id = ? AND seq = 3", (gid,)
        ))
        assert not report.ok and report.first_bad_seq == 3 and report.checked == 5
        assert any("hash" in p for p in report.problems)

    def test_verify_chain_catches_a_removed_event(
        self, backend: Backend, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        gid = new_id()
        report = tampered(backend, store.events, reader, gid, ("DELETE FROM events WHERE game_id = ? AND seq = 2", (gid,)))
        assert not report.ok and report.first_bad_seq == 2

    def test_verify_chain_catches_a_removed_tail(
        self, backend: Backend, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        gid = new_id()
        report = tampered(backend, store.events, reader, gid, ("DELETE FROM events WHERE game_id = ? AND seq = 5", (gid,)))
        assert not report.ok and report.first_bad_seq == 5 and report.checked == 4

    def test_verify_chain_catches_reordered_events(
        self, backend: Backend, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        gid = new_id()
        report = tampered(
            backend, store.events, reader, gid,
            ("UPDATE events SET seq = 1000 WHERE game_id = ? AND seq = 2", (gid,)),
            ("UPDATE events SET seq = 2 WHERE game_id = ? AND seq = 3", (gid,)),
            ("UPDATE events SET seq = 3 WHERE game_id = ? AND seq = 1000", (gid,)),
        )
        assert not report.ok and report.first_bad_seq == 2

    def test_verify_chain_catches_an_injected_event(
        self, backend: Backend, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        gid = new_id()
        events = chain_of_five(store.events, gid)
        last = events[-1]
        forged = {"game_id": gid, "seq": 6, "type": "tick", "schema_version": 1, "payload": {"k": 6}}
        digest = event_hash(
            **forged, recorded_at=last.recorded_at, seat=0, idempotency_key=None, prev_hash=last.hash
        )
        # A forged, correctly hashed event written behind the game row's back
        # (past the triggers, by the tables' owner) must still be noticed.
        backend.tamper((
            "INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat, prev_hash, hash)"
            " VALUES (?, 6, 'tick', 1, '{\"k\":6}', ?, 0, ?, ?)",
            (gid, last.recorded_at, last.hash, digest),
        ))
        report = reader.verify_chain(gid)
        assert not report.ok and report.checked == 6

    # -- reading ---------------------------------------------------------------------

    def test_load_pages_by_seq(self, store: Stores, reader: EventReader, new_id: NewId) -> None:
        gid = new_id()
        started(gid, store.events, n=7)
        assert [e.seq for e in reader.load(gid, after=2, limit=3)] == [3, 4, 5]
        assert [e.seq for e in reader.load(gid, after=5)] == [6, 7]
        assert reader.load(gid, after=7) == []
        pages, after = [], 0
        while page := reader.load(gid, after=after, limit=2):
            pages.append([e.seq for e in page])
            after = page[-1].seq
        assert pages == [[1, 2], [3, 4], [5, 6], [7]]
        with pytest.raises(ValueError):
            reader.load(gid, limit=0)

    def test_list_games_newest_first_with_filters_and_cursor(
        self, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        kind = f"type-{new_id()}"
        ids = [new_id() for _ in range(7)]
        batch = f"batch-{new_id()}"
        for i, gid in enumerate(ids):
            meta = {"batch": batch if i == 4 else "even" if i % 2 == 0 else "odd"}
            store.events.create_game(gid, kind, meta, [ev()], "finished" if i < 3 else "playing")
        newest_first = list(reversed(ids))
        assert [g.game_id for g in reader.list_games(game_type=kind, limit=100).games] == newest_first
        seen: list[str] = []
        cursor = None
        while True:
            page = reader.list_games(game_type=kind, limit=3, cursor=cursor)
            assert len(page.games) <= 3
            seen += [g.game_id for g in page.games]
            cursor = page.next_cursor
            if cursor is None:
                break
        assert seen == newest_first
        finished = reader.list_games(game_type=kind, status="finished").games
        assert [g.game_id for g in finished] == [ids[2], ids[1], ids[0]]
        assert [g.game_id for g in reader.list_games(batch=batch).games] == [ids[4]]
        assert [g.game_id for g in reader.list_games(game_type=kind, batch="odd", status="playing").games] == [
            ids[5],
            ids[3],
        ]
        with pytest.raises(InvalidCursor):
            reader.list_games(cursor="not-a-cursor")

    def test_read_all_is_the_global_log_in_position_order(
        self, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        tail = reader.read_all(after_position=0, limit=10_000)
        start = tail[-1].position if tail else 0
        a, b = new_id(), new_id()
        started(a, store.events)
        started(b, store.events, n=2)
        store.events.append(a, 1, [ev(), ev()])
        store.events.append(b, 2, [ev()])
        log = reader.read_all(after_position=start)
        assert [(e.game_id, e.seq) for e in log] == [(a, 1), (b, 1), (b, 2), (a, 2), (a, 3), (b, 3)]
        positions = [e.position for e in log]
        assert positions == sorted(set(positions))
        assert reader.read_all(after_position=start, limit=2) == log[:2]
        assert reader.read_all(after_position=log[1].position, limit=2) == log[2:4]

    def test_a_tailing_reader_never_misses_a_position(
        self, backend: Backend, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        """Writers on several threads and games; a reader tails ``read_all``.

        If a position could become visible after a higher one, the reader would
        step past it and never see it: so everything written must be seen."""
        tail = reader.read_all(after_position=0, limit=10_000)
        start = tail[-1].position if tail else 0
        games = [new_id() for _ in range(4)]
        for gid in games:
            started(gid, store.events)
        writers_done = threading.Event()
        errors: list[BaseException] = []

        def write(gid: str) -> None:
            writer = backend.open()
            try:
                for version in range(1, 26):
                    writer.events.append(gid, version, [ev()])
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)

        seen: list[StoredEvent] = []
        threads = [threading.Thread(target=write, args=(gid,)) for gid in games]
        for t in threads:
            t.start()

        def finish() -> None:
            for t in threads:
                t.join()
            writers_done.set()

        threading.Thread(target=finish).start()
        _tail(reader, start, writers_done, seen, limit=7)
        assert not errors
        assert [e.position for e in seen] == sorted({e.position for e in seen})
        everything = [e for e in reader.read_all(after_position=start, limit=10_000) if e.game_id in games]
        assert [e for e in seen if e.game_id in games] == everything
        assert len(everything) == 4 * 26


    # -- the global log under concurrency --------------------------------------------------

    def test_no_reader_ever_skips_a_committed_event(
        self, backend: Backend, store: Stores, reader: EventReader, new_id: NewId
    ) -> None:
        """Appenders on stores of their own (so, on PostgreSQL, on connections and
        transactions of their own) write batches of 1 to 3 events to games of their
        own as fast as they can, while several readers tail ``read_all`` the way
        the webhook dispatcher does (small pages, each continuing after the last
        position it was handed).  When the appenders are done, every reader must
        have been handed exactly the events of the finished log, in its order, each
        once.  A store that let positions become visible out of order (e.g. drawing
        them from a sequence with no lock and reading by position: the old scheme
        with its lock removed) makes some reader step past an event whose
        transaction had not committed yet, and it never comes back for it."""
        head = reader.read_all(after_position=0, limit=10_000)
        start = head[-1].position if head else 0
        games = [new_id() for _ in range(APPENDERS)]
        for gid in games:
            store.events.create_game(gid, "test-game", {}, [NewEvent("started", {}, 1, None)], "playing")
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


class TestEventReaderSqlite(EventReaderContract):
    backend_type = SqliteBackend


class TestEventReaderPostgres(EventReaderContract):
    backend_type = PostgresBackend


class TestEventReaderStandby(EventReaderContract):
    backend_type = StandbyBackend
