"""The :class:`~events.store.EventStore` contract (event log and game
catalogue), run against every backend (see conftest.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from events.envelope import GENESIS_HASH, event_hash, recompute_hash
from events.store import (
    EventReader,
    EventStore,
    GameExists,
    GameNotFound,
    GuardFailed,
    IntegrityError,
    InvalidCursor,
    MetadataGuard,
    NewEvent,
    StaleVersion,
    StoredEvent,
    StoreUnavailable,
)
from tests.contract.conftest import TEST_SIGNER, Backend

NewId = Callable[[], str]


def holds_in(guard: MetadataGuard, metadata: Mapping[str, Any]) -> bool:
    """Whether ``guard`` holds in ``metadata`` (a missing path does not)."""
    node: Any = metadata
    for step in guard.path:
        in_list = isinstance(step, int) and isinstance(node, list) and 0 <= step < len(node)
        in_dict = isinstance(step, str) and isinstance(node, dict) and step in node
        if not (in_list or in_dict):
            return False
        node = node[step]
    return isinstance(node, str) and node == guard.value


def ev(kind: str = "tick", seat: int | None = 0, **payload: object) -> NewEvent:
    return NewEvent(type=kind, payload=payload or {"n": 1}, schema_version=1, seat=seat)


def started(game_id: str, store: EventStore, n: int = 1, game_type: str = "test-game") -> None:
    store.create_game(game_id, game_type, {}, [ev("started", None, i=i) for i in range(n)], "playing")


# -- creating games ------------------------------------------------------------


def test_create_game_writes_a_chained_opening(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    written = store.create_game(
        gid, "test-game", {"batch": "b1"}, [ev("a", None), ev("b", 1, x=[1, 2])], "setup"
    )
    assert [e.seq for e in written] == [1, 2]
    assert written[0].prev_hash == GENESIS_HASH
    assert written[1].prev_hash == written[0].hash
    assert all(recompute_hash(e) == e.hash for e in written)
    assert written[0].position < written[1].position
    assert store.load(gid) == list(written)
    record = store.get_game(gid)
    assert (record.game_id, record.game_type, record.status, record.version) == (gid, "test-game", "setup", 2)
    assert record.metadata == {"batch": "b1"}
    assert record.created_at.endswith("Z") and record.created_at == record.updated_at


def test_create_game_without_events_is_version_zero(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    assert store.create_game(gid, "test-game", {}, [], "setup") == ()
    assert store.version(gid) == 0
    assert store.load(gid) == []
    first = store.append(gid, 0, [ev()]).events[0]
    assert (first.seq, first.prev_hash) == (1, GENESIS_HASH)


def test_create_game_refuses_a_taken_id(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    started(gid, store)
    with pytest.raises(GameExists):
        store.create_game(gid, "other", {"x": 1}, [ev(), ev()], "finished")
    assert store.version(gid) == 1
    assert store.get_game(gid).game_type == "test-game"


# -- appending -----------------------------------------------------------------


def test_appends_get_consecutive_seqs_and_round_trip(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    started(gid, store)
    payload = {"text": "Fähre → Nob Hill ✓", "nested": {"b": [1, {"c": None}], "a": True}, "f": 1.5}
    r1 = store.append(gid, 1, [NewEvent("claim", payload, 3, 2)])
    r2 = store.append(gid, 2, [ev("a"), ev("b", None), ev("c", 1)])
    assert not r1.replayed and not r2.replayed
    loaded = store.load(gid)
    assert [e.seq for e in loaded] == [1, 2, 3, 4, 5]
    assert [e.type for e in loaded] == ["started", "claim", "a", "b", "c"]
    assert loaded[1] == r1.events[0]
    assert loaded[1].payload == payload and loaded[1].schema_version == 3 and loaded[1].seat == 2
    assert loaded[3].seat is None
    assert [e.position for e in loaded] == sorted(e.position for e in loaded)
    for before, after in zip(loaded, loaded[1:], strict=False):
        assert after.prev_hash == before.hash
    assert store.version(gid) == 5
    assert store.verify_chain(gid).ok


def test_append_to_unknown_game(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    with pytest.raises(GameNotFound):
        store.append(gid, 0, [ev()])
    for call in (store.load, store.version, store.get_game, store.verify_chain):
        with pytest.raises(GameNotFound):
            call(gid)
    with pytest.raises(GameNotFound):
        store.compare_and_set_metadata(gid, "a", None, 1)


def test_stale_version_writes_nothing(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    started(gid, store, n=2)
    for expected in (0, 1, 3):
        with pytest.raises(StaleVersion) as info:
            store.append(gid, expected, [ev()], status="finished")
        assert (info.value.game_id, info.value.expected, info.value.current) == (gid, expected, 2)
    assert store.version(gid) == 2
    assert store.get_game(gid).status == "playing"
    assert store.append(gid, 2, [ev()]).events[0].seq == 3


def test_a_batch_with_a_malformed_event_writes_nothing(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    started(gid, store)
    with pytest.raises(ValueError):
        store.append(gid, 1, [ev(), NewEvent("bad", {"s": {1, 2}})])
    with pytest.raises(ValueError):
        store.append(gid, 1, [])
    assert store.version(gid) == 1 and len(store.load(gid)) == 1


def test_a_batch_the_database_refuses_writes_nothing(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    started(gid, store)
    with pytest.raises(IntegrityError):
        store.append(gid, 1, [ev(), ev(), ev(seat=-1)], idempotency_key="k1", status="finished")
    assert store.version(gid) == 1
    assert len(store.load(gid)) == 1
    assert store.get_game(gid).status == "playing"
    assert store.lookup_idempotency(gid, "k1") is None
    assert [e.seq for e in store.append(gid, 1, [ev(), ev()], idempotency_key="k1").events] == [2, 3]
    assert store.verify_chain(gid).ok


def test_status_changes_with_the_append(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    started(gid, store)
    before = store.get_game(gid)
    store.append(gid, 1, [ev()], status="last_round")
    after = store.get_game(gid)
    assert (after.status, after.version) == ("last_round", 2)
    assert after.updated_at >= before.updated_at
    store.append(gid, 2, [ev()])
    assert store.get_game(gid).status == "last_round"


# -- idempotency ---------------------------------------------------------------


def test_a_repeated_idempotency_key_replays_the_first_append(store: EventStore, new_id: NewId) -> None:
    gid, other = new_id(), new_id()
    started(gid, store)
    started(other, store)
    first = store.append(gid, 1, [ev("a"), ev("b")], idempotency_key="key-1", request_hash="h1")
    assert not first.replayed and first.request_hash == "h1"
    assert all(e.idempotency_key == "key-1" for e in first.events)
    # a retry (even with another body and a now-stale version) writes nothing
    again = store.append(gid, 1, [ev("zzz")], idempotency_key="key-1", request_hash="h2", status="finished")
    assert again.replayed and again.request_hash == "h1"
    assert again.events == first.events
    assert store.version(gid) == 3 and store.get_game(gid).status == "playing"
    assert store.lookup_idempotency(gid, "key-1") == again
    assert store.lookup_idempotency(gid, "key-2") is None
    # keys are per game
    assert not store.append(other, 1, [ev()], idempotency_key="key-1").replayed
    assert store.verify_chain(gid).ok


@pytest.mark.parametrize("batch", [1, 3], ids=["one event", "three events"])
def test_an_append_guard_is_checked_with_the_write(store: EventStore, new_id: NewId, batch: int) -> None:
    gid = new_id()
    store.create_game(gid, "test-game", {"seat_token_hashes": ["h0", "h1"]}, [ev("started", None)], "playing")
    holds = MetadataGuard(("seat_token_hashes", 1), "h1")
    events = [ev("a", seat=1) for _ in range(batch)]
    assert not store.append(gid, 1, events, guard=holds).replayed
    assert store.version(gid) == 1 + batch
    version = store.version(gid)
    # a rotated token, a wrong path, an index past the end, a non-string: nothing is written
    for failing in (
        MetadataGuard(("seat_token_hashes", 1), "h0"),
        MetadataGuard(("seat_token_hashes", 2), "h1"),
        MetadataGuard(("nothing", "here"), "h1"),
        MetadataGuard(("seat_token_hashes",), "h1"),
    ):
        with pytest.raises(GuardFailed):
            store.append(gid, version, events, guard=failing)
        assert not holds_in(failing, store.get_game(gid).metadata)
    # the guard comes before the idempotency replay and the version check
    store.append(gid, version, events, idempotency_key="k", guard=holds)
    assert store.compare_and_set_metadata(gid, "seat_token_hashes", ["h0", "h1"], ["h0", "rotated"])
    with pytest.raises(GuardFailed):
        store.append(gid, version, events, idempotency_key="k", guard=holds)
    with pytest.raises(GuardFailed):
        store.append(gid, 0, events, guard=holds)
    assert store.version(gid) == version + batch
    assert store.append(gid, version, events, idempotency_key="k").replayed
    with pytest.raises(GameNotFound):
        store.append(new_id(), 0, events, guard=holds)
    assert store.verify_chain(gid).ok


def test_a_guard_path_is_keys_and_indexes() -> None:
    for bad in ((), ("a b",), ('a"',), ("",), (-1,), (True,), (1.5,)):
        with pytest.raises(ValueError):
            MetadataGuard(bad, "x")  # type: ignore[arg-type]


def test_a_guard_sees_a_change_committed_while_the_append_waited(
    backend: Backend, store: EventStore, new_id: NewId
) -> None:
    """A token rotated between the append's first read and its write wins."""
    if backend.name != "postgres":
        pytest.skip("SQLite appends hold the write lock from their first read")
    import psycopg

    gid = new_id()
    store.create_game(gid, "test-game", {"seat_token_hashes": ["h0"]}, [ev("started", None)], "playing")
    guard = MetadataGuard(("seat_token_hashes", 0), "h0")
    with psycopg.connect(backend.url) as blocker:
        blocker.execute("UPDATE games SET metadata = metadata || '{\"seat_token_hashes\": [\"new\"]}'::jsonb"
                        " WHERE game_id = %s", (gid,))
        outcome: list[object] = []
        worker = threading.Thread(target=lambda: outcome.append(_append_or_error(store, gid, guard)))
        worker.start()
        time.sleep(0.3)  # the append reads the old metadata, then waits for the row lock
        assert worker.is_alive()
        blocker.commit()
        worker.join(5)
    assert isinstance(outcome[0], GuardFailed)
    assert store.version(gid) == 1


def _append_or_error(store: EventStore, gid: str, guard: MetadataGuard) -> object:
    try:
        return store.append(gid, 1, [ev("a")], guard=guard)
    except GuardFailed as e:
        return e


# -- immutability --------------------------------------------------------------


def test_the_database_refuses_to_change_events(backend: Backend, store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    started(gid, store, n=2)
    statements = [
        "UPDATE events SET payload = '{\"n\": 99}' WHERE game_id = ?",
        "UPDATE events SET seq = seq + 10 WHERE game_id = ?",
        "DELETE FROM events WHERE game_id = ?",
    ]
    for sql in statements:
        with pytest.raises(Exception, match="immutable"):
            backend.execute(sql, (gid,))
    if backend.name == "postgres":
        with pytest.raises(Exception, match="immutable"):
            backend.execute("TRUNCATE events CASCADE")
    assert [e.payload for e in store.load(gid)] == [{"i": 0}, {"i": 1}]
    # the games table is the mutable part
    backend.execute("UPDATE games SET status = 'finished' WHERE game_id = ?", (gid,))
    assert store.get_game(gid).status == "finished"


# -- verify_chain ----------------------------------------------------------------


def chain_of_five(store: EventStore, gid: str) -> list[StoredEvent]:
    started(gid, store)
    store.append(gid, 1, [ev(k=2), ev(k=3)])
    store.append(gid, 3, [ev(k=4)])
    store.append(gid, 4, [ev(k=5)])
    events = store.load(gid)
    assert store.verify_chain(gid).ok and store.verify_chain(gid).checked == 5
    return events


def test_verify_chain_catches_an_edited_event(backend: Backend, store: EventStore, reader: EventReader, new_id: NewId) -> None:
    gid = new_id()
    chain_of_five(store, gid)
    backend.tamper(("UPDATE events SET payload = '{\"k\":30}' WHERE game_id = ? AND seq = 3", (gid,)))
    report = reader.verify_chain(gid)
    assert not report.ok and report.first_bad_seq == 3 and report.checked == 5
    assert any("hash" in p for p in report.problems)


def test_verify_chain_catches_a_removed_event(backend: Backend, store: EventStore, reader: EventReader, new_id: NewId) -> None:
    gid = new_id()
    chain_of_five(store, gid)
    backend.tamper(("DELETE FROM events WHERE game_id = ? AND seq = 2", (gid,)))
    report = reader.verify_chain(gid)
    assert not report.ok and report.first_bad_seq == 2


def test_verify_chain_catches_a_removed_tail(backend: Backend, store: EventStore, reader: EventReader, new_id: NewId) -> None:
    gid = new_id()
    chain_of_five(store, gid)
    backend.tamper(("DELETE FROM events WHERE game_id = ? AND seq = 5", (gid,)))
    report = reader.verify_chain(gid)
    assert not report.ok and report.first_bad_seq == 5 and report.checked == 4


def test_verify_chain_catches_reordered_events(backend: Backend, store: EventStore, reader: EventReader, new_id: NewId) -> None:
    gid = new_id()
    chain_of_five(store, gid)
    backend.tamper(
        ("UPDATE events SET seq = 1000 WHERE game_id = ? AND seq = 2", (gid,)),
        ("UPDATE events SET seq = 2 WHERE game_id = ? AND seq = 3", (gid,)),
        ("UPDATE events SET seq = 3 WHERE game_id = ? AND seq = 1000", (gid,)),
    )
    report = reader.verify_chain(gid)
    assert not report.ok and report.first_bad_seq == 2


def test_verify_chain_catches_an_injected_event(backend: Backend, store: EventStore, reader: EventReader, new_id: NewId) -> None:
    gid = new_id()
    events = chain_of_five(store, gid)
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


def test_load_pages_by_seq(store: EventStore, reader: EventReader, new_id: NewId) -> None:
    gid = new_id()
    started(gid, store, n=7)
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


def test_list_games_newest_first_with_filters_and_cursor(store: EventStore, reader: EventReader, new_id: NewId) -> None:
    kind = f"type-{new_id()}"
    ids = [new_id() for _ in range(7)]
    for i, gid in enumerate(ids):
        meta = {"batch": "even" if i % 2 == 0 else "odd"}
        store.create_game(gid, kind, meta, [ev()], "finished" if i < 3 else "playing")
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
    batch = f"batch-{new_id()}"
    assert store.compare_and_set_metadata(ids[4], "batch", "even", batch)
    assert [g.game_id for g in reader.list_games(batch=batch).games] == [ids[4]]
    assert [g.game_id for g in reader.list_games(game_type=kind, batch="odd", status="playing").games] == [
        ids[5],
        ids[3],
    ]
    with pytest.raises(InvalidCursor):
        reader.list_games(cursor="not-a-cursor")


# -- one metadata key, compared and set ------------------------------------------------


def test_compare_and_set_metadata_sets_only_over_the_expected_value(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    store.create_game(gid, "test-game", {"hashes": ["a", "b"], "batch": "x"}, [ev("set_up", None)], "playing")
    assert store.compare_and_set_metadata(gid, "hashes", ["a", "b"], ["a", "c"]) is True
    # a second writer that read the old list loses instead of undoing the first change
    assert store.compare_and_set_metadata(gid, "hashes", ["a", "b"], ["z", "b"]) is False
    assert store.compare_and_set_metadata(gid, "missing", None, 1) is False
    assert store.get_game(gid).metadata == {"hashes": ["a", "c"], "batch": "x"}
    with pytest.raises(GameNotFound):
        store.compare_and_set_metadata(new_id(), "hashes", [], [])


def test_read_all_is_the_global_log_in_position_order(store: EventStore, reader: EventReader, new_id: NewId) -> None:
    tail = reader.read_all(after_position=0, limit=10_000)
    start = tail[-1].position if tail else 0
    a, b = new_id(), new_id()
    started(a, store)
    started(b, store, n=2)
    store.append(a, 1, [ev(), ev()])
    store.append(b, 2, [ev()])
    log = reader.read_all(after_position=start)
    assert [(e.game_id, e.seq) for e in log] == [(a, 1), (b, 1), (b, 2), (a, 2), (a, 3), (b, 3)]
    positions = [e.position for e in log]
    assert positions == sorted(set(positions))
    assert reader.read_all(after_position=start, limit=2) == log[:2]
    assert reader.read_all(after_position=log[1].position, limit=2) == log[2:4]


def test_a_tailing_reader_never_misses_a_position(backend: Backend, store: EventStore, reader: EventReader, new_id: NewId) -> None:
    """Writers on several threads and games; a reader tails ``read_all``.

    If a position could become visible after a higher one, the reader would
    step past it and never see it: so everything written must be seen."""
    tail = reader.read_all(after_position=0, limit=10_000)
    start = tail[-1].position if tail else 0
    games = [new_id() for _ in range(4)]
    for gid in games:
        started(gid, store)
    writers_done = threading.Event()
    errors: list[BaseException] = []

    def write(gid: str) -> None:
        writer = backend.open()
        try:
            for version in range(1, 26):
                writer.append(gid, version, [ev()])
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
    after = start
    while True:
        done = writers_done.is_set()
        batch = reader.read_all(after_position=after, limit=7)
        seen += batch
        if batch:
            after = batch[-1].position
        elif done:
            break
    assert not errors
    assert [e.position for e in seen] == sorted({e.position for e in seen})
    everything = [e for e in reader.read_all(after_position=start, limit=10_000) if e.game_id in games]
    assert [e for e in seen if e.game_id in games] == everything
    assert len(everything) == 4 * 26


# -- waiting -----------------------------------------------------------------------


def test_wait_for_events_is_woken_by_another_store_instance(
    backend: Backend, store: EventStore, new_id: NewId
) -> None:
    gid = new_id()
    started(gid, store)
    writer = backend.open()
    assert store.wait_for_events(gid, 0, timeout=5.0)  # already there
    t0 = time.monotonic()
    assert not store.wait_for_events(gid, 1, timeout=0.3)
    assert 0.25 <= time.monotonic() - t0 < 3.0
    woke: list[tuple[bool, float]] = []

    def waiter() -> None:
        t = time.monotonic()
        woke.append((store.wait_for_events(gid, 1, timeout=20.0), time.monotonic() - t))

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.3)
    writer.append(gid, 1, [ev()])
    thread.join(timeout=25.0)
    assert woke and woke[0][0] is True
    assert woke[0][1] < 1.5  # a wake-up, not the 20 s timeout nor the slow fallback poll
    with pytest.raises(GameNotFound):
        store.wait_for_events(new_id(), 0, timeout=0.1)


# -- lifecycle ---------------------------------------------------------------------


def test_ping_and_close(backend: Backend, new_id: NewId) -> None:
    store = backend.open()
    store.ping()
    store.close()
    with pytest.raises(StoreUnavailable):
        store.ping()
    with pytest.raises(StoreUnavailable):
        store.create_game(new_id(), "t", {}, [], "setup")


def test_awkward_strings_survive_storage_and_hashing(store: EventStore) -> None:
    """Hashes finished by the database must equal Python's for any text."""
    awkward = 'q"uo\\te \u00e9\u4e2d\U0001f682 \t\n\x01 </script> %s ? $1'
    gid = f"g-{awkward}-{time.monotonic_ns()}"
    store.create_game(gid, "test-game", {"note": awkward}, [ev("started", None, text=awkward)], "playing")
    appended = store.append(
        gid,
        1,
        [NewEvent(f"type {awkward}", {awkward: [awkward, {"k": awkward}]}, 1, 3), ev(text=awkward)],
        idempotency_key=f"key {awkward}",
        request_hash=awkward,
    )
    loaded = store.load(gid)
    assert loaded[1:] == list(appended.events)
    assert loaded[1].payload == {awkward: [awkward, {"k": awkward}]}
    assert all(recompute_hash(e) == e.hash for e in loaded)
    assert store.verify_chain(gid).ok
    assert store.append(gid, 1, [ev()], idempotency_key=f"key {awkward}").request_hash == awkward
    assert store.get_game(gid).metadata == {"note": awkward}


def test_many_waiters_wake_together(backend: Backend, store: EventStore, new_id: NewId) -> None:
    gid, other = new_id(), new_id()
    started(gid, store)
    started(other, store)
    results: dict[int, bool] = {}

    def wait(i: int) -> None:
        results[i] = store.wait_for_events(gid if i < 3 else other, 1, timeout=10.0)

    threads = [threading.Thread(target=wait, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    t0 = time.monotonic()
    backend.open().append(gid, 1, [ev()])
    for t in threads[:3]:
        t.join(timeout=10.0)
    assert time.monotonic() - t0 < 2.0
    assert results == {0: True, 1: True, 2: True}  # the waiter on the other game still waits
    backend.open().append(other, 1, [ev()])
    threads[3].join(timeout=10.0)
    assert results[3] is True


@pytest.mark.postgres
def test_postgres_waits_fall_back_to_polling_without_notifications(backend: Backend, new_id: NewId) -> None:
    if backend.name != "postgres":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    from events.postgres import PostgresStore

    store = PostgresStore(backend.url, fallback_poll=0.3, signer=TEST_SIGNER)
    writer = backend.open()
    gid = new_id()
    try:
        started(gid, writer)
        assert not store.wait_for_events(gid, 1, timeout=0.1)  # the listener is up
        # no NOTIFY for this game any more: the listener believes it is still recorded as watched
        backend.execute("DELETE FROM game_watches WHERE game_id = ?", (gid,))
        threading.Timer(0.2, lambda: writer.append(gid, 1, [ev()])).start()
        t0 = time.monotonic()
        assert store.wait_for_events(gid, 1, timeout=10.0)
        assert time.monotonic() - t0 < 2.0
    finally:
        store.close()


def test_notification_payloads_parse() -> None:
    from events.postgres.listener import parse_notification

    assert parse_notification("12 g-1") == ("g-1", 12)
    assert parse_notification("3 id with spaces") == ("id with spaces", 3)
    for bad in ("", "12", "x g", "-1 g", "12 "):
        assert parse_notification(bad) is None


@pytest.mark.postgres
def test_postgres_notifies_only_for_watched_games(backend: Backend, new_id: NewId) -> None:
    """Notifying commits are serialised by PostgreSQL, so appends NOTIFY only
    for games a listener recorded in game_watches (migration 0008)."""
    if backend.name != "postgres":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    import psycopg

    from events.postgres import PostgresStore

    waiter = PostgresStore(backend.url, signer=TEST_SIGNER)
    writer = backend.open()
    quiet, watched = new_id(), new_id()
    started(quiet, writer)
    started(watched, writer)
    with psycopg.connect(backend.url, autocommit=True) as spy:
        spy.execute("LISTEN cablecar_events")
        try:
            assert not waiter.wait_for_events(watched, 1, timeout=0.2)  # records the game
            writer.append(quiet, 1, [ev()])
            writer.append(watched, 1, [ev()])
            heard = [n.payload for n in spy.notifies(timeout=1.0, stop_after=2)]
            assert heard == [f"2 {watched}"]
        finally:
            waiter.close()
        rows = spy.execute("SELECT count(*) FROM game_watches WHERE game_id = %s", (watched,)).fetchone()
        assert rows == (0,)  # a closing listener deletes its rows


# -- signatures -------------------------------------------------------------------


def test_every_event_is_signed_even_by_a_store_that_never_saw_the_game(backend: Backend, new_id: NewId) -> None:
    from events.keyset import KeySet, first_bad_signature

    gid = new_id()
    first = backend.open()
    started(gid, first, n=3)
    other = backend.open()  # knows nothing of the game: on PostgreSQL its head is learnt from the database
    other.append(gid, 3, [NewEvent("tick", {"k": 4})])
    other.append(gid, 4, [NewEvent("tick", {"k": 5}), NewEvent("tick", {"k": 6})])
    first.append(gid, 6, [NewEvent("tick", {"k": 7})])  # its head is stale: learnt again
    events = first.load(gid)
    assert [e.seq for e in events] == [1, 2, 3, 4, 5, 6, 7] and first.verify_chain(gid).ok
    assert {e.key_id for e in events} == {TEST_SIGNER.key_id}
    assert first_bad_signature(events, KeySet([TEST_SIGNER.public])) is None
