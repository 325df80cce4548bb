"""The :class:`~events.recorders.event_log.EventStore` contract (the event log's writes
and the game catalogue), run against every backend (see conftest.py).

What a standby may serve is ``test_event_reader.py``'s; waiting for events,
``test_waiting.py``'s."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from events import Stores
from events.integrity.envelope import GENESIS_HASH, recompute_hash
from events.recorders.event_log import EventStore
from events.records import (
    AppendOptions,
    GameExists,
    GameNotFound,
    GuardFailed,
    IntegrityError,
    MetadataGuard,
    NewEvent,
    StaleVersion,
    StoreUnavailable,
    TokenChange,
)
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import TEST_SIGNER, ev, keyed, rotated, started

NewId = Callable[[], str]


def test_a_guard_path_is_keys_and_indexes() -> None:
    for bad in ((), ("a b",), ('a"',), ("",), (-1,), (True,), (1.5,)):
        with pytest.raises(ValueError):
            MetadataGuard(bad, "x")  # type: ignore[arg-type]


def _append_or_error(store: EventStore, gid: str, guard: MetadataGuard) -> object:
    try:
        return store.append(gid, 1, [ev("a")], AppendOptions(guard=guard))
    except GuardFailed as e:
        return e



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

class EventStoreContract(Contract):
    """Writing games and events, on one backend per subclass."""

    # -- creating games ------------------------------------------------------------

    def test_create_game_writes_a_chained_opening(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        written = store.events.create_game(
            gid, "test-game", {"batch": "b1"}, [ev("a", None), ev("b", 1, x=[1, 2])], "setup"
        )
        assert [e.seq for e in written] == [1, 2]
        assert written[0].prev_hash == GENESIS_HASH
        assert written[1].prev_hash == written[0].hash
        assert all(recompute_hash(e) == e.hash for e in written)
        assert written[0].position < written[1].position
        assert store.events.load(gid) == list(written)
        record = store.events.get_game(gid)
        assert (record.game_id, record.game_type, record.status, record.version) == (gid, "test-game", "setup", 2)
        assert record.metadata == {"batch": "b1"}
        assert record.created_at.endswith("Z") and record.created_at == record.updated_at

    def test_create_game_without_events_is_version_zero(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        assert store.events.create_game(gid, "test-game", {}, [], "setup") == ()
        assert store.events.version(gid) == 0
        assert store.events.load(gid) == []
        first = store.events.append(gid, 0, [ev()]).events[0]
        assert (first.seq, first.prev_hash) == (1, GENESIS_HASH)

    def test_create_game_refuses_a_taken_id(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        started(gid, store.events)
        with pytest.raises(GameExists):
            store.events.create_game(gid, "other", {"x": 1}, [ev(), ev()], "finished")
        assert store.events.version(gid) == 1
        assert store.events.get_game(gid).game_type == "test-game"

    # -- appending -----------------------------------------------------------------

    def test_appends_get_consecutive_seqs_and_round_trip(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        started(gid, store.events)
        payload = {"text": "Fähre → Nob Hill ✓", "nested": {"b": [1, {"c": None}], "a": True}, "f": 1.5}
        r1 = store.events.append(gid, 1, [NewEvent("claim", payload, 3, 2)])
        r2 = store.events.append(gid, 2, [ev("a"), ev("b", None), ev("c", 1)])
        assert not r1.replayed and not r2.replayed
        loaded = store.events.load(gid)
        assert [e.seq for e in loaded] == [1, 2, 3, 4, 5]
        assert [e.type for e in loaded] == ["started", "claim", "a", "b", "c"]
        assert loaded[1] == r1.events[0]
        assert loaded[1].payload == payload and loaded[1].schema_version == 3 and loaded[1].seat == 2
        assert loaded[3].seat is None
        assert [e.position for e in loaded] == sorted(e.position for e in loaded)
        for before, after in zip(loaded, loaded[1:], strict=False):
            assert after.prev_hash == before.hash
        assert store.events.version(gid) == 5
        assert store.events.verify_chain(gid).ok

    def test_append_to_unknown_game(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        with pytest.raises(GameNotFound):
            store.events.append(gid, 0, [ev()])
        for call in (store.events.load, store.events.version, store.events.get_game, store.events.verify_chain):
            with pytest.raises(GameNotFound):
                call(gid)
        with pytest.raises(GameNotFound):
            store.events.append(gid, 0, [rotated(0)], AppendOptions(token=TokenChange(0, keyed(1))))

    def test_stale_version_writes_nothing(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        started(gid, store.events, n=2)
        for expected in (0, 1, 3):
            with pytest.raises(StaleVersion) as info:
                store.events.append(gid, expected, [ev()], AppendOptions(status="finished"))
            assert (info.value.game_id, info.value.expected, info.value.current) == (gid, expected, 2)
        assert store.events.version(gid) == 2
        assert store.events.get_game(gid).status == "playing"
        assert store.events.append(gid, 2, [ev()]).events[0].seq == 3

    def test_a_batch_with_a_malformed_event_writes_nothing(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        started(gid, store.events)
        with pytest.raises(ValueError):
            store.events.append(gid, 1, [ev(), NewEvent("bad", {"s": {1, 2}})])
        with pytest.raises(ValueError):
            store.events.append(gid, 1, [])
        assert store.events.version(gid) == 1 and len(store.events.load(gid)) == 1

    def test_a_batch_the_database_refuses_writes_nothing(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        started(gid, store.events)
        with pytest.raises(IntegrityError):
            store.events.append(gid, 1, [ev(), ev(), ev(seat=-1)],
                                AppendOptions(idempotency_key="k1", status="finished"))
        assert store.events.version(gid) == 1
        assert len(store.events.load(gid)) == 1
        assert store.events.get_game(gid).status == "playing"
        assert store.events.lookup_idempotency(gid, "k1") is None
        retried = store.events.append(gid, 1, [ev(), ev()], AppendOptions(idempotency_key="k1"))
        assert [e.seq for e in retried.events] == [2, 3]
        assert store.events.verify_chain(gid).ok

    def test_status_changes_with_the_append(self, store: Stores, new_id: NewId) -> None:
        gid = new_id()
        started(gid, store.events)
        before = store.events.get_game(gid)
        store.events.append(gid, 1, [ev()], AppendOptions(status="last_round"))
        after = store.events.get_game(gid)
        assert (after.status, after.version) == ("last_round", 2)
        assert after.updated_at >= before.updated_at
        store.events.append(gid, 2, [ev()])
        assert store.events.get_game(gid).status == "last_round"

    # -- idempotency and guards ----------------------------------------------------

    def test_a_repeated_idempotency_key_replays_the_first_append(
        self, store: Stores, new_id: NewId
    ) -> None:
        gid, other = new_id(), new_id()
        started(gid, store.events)
        started(other, store.events)
        first = store.events.append(gid, 1, [ev("a"), ev("b")],
                                    AppendOptions(idempotency_key="key-1", request_hash="h1"))
        assert not first.replayed and first.request_hash == "h1"
        assert all(e.idempotency_key == "key-1" for e in first.events)
        # a retry (even with another body and a now-stale version) writes nothing
        again = store.events.append(gid, 1, [ev("zzz")],
                                    AppendOptions(idempotency_key="key-1", request_hash="h2", status="finished"))
        assert again.replayed and again.request_hash == "h1"
        assert again.events == first.events
        assert store.events.version(gid) == 3 and store.events.get_game(gid).status == "playing"
        assert store.events.lookup_idempotency(gid, "key-1") == again
        assert store.events.lookup_idempotency(gid, "key-2") is None
        # keys are per game
        assert not store.events.append(other, 1, [ev()], AppendOptions(idempotency_key="key-1")).replayed
        assert store.events.verify_chain(gid).ok

    @pytest.mark.parametrize("batch", [1, 3], ids=["one event", "three events"])
    def test_an_append_guard_is_checked_with_the_write(
        self, store: Stores, new_id: NewId, batch: int
    ) -> None:
        gid = new_id()
        store.events.create_game(gid, "test-game", {"seat_token_hashes": ["h0", "h1"]}, [ev("started", None)],
                                 "playing")
        holds = MetadataGuard(("seat_token_hashes", 1), "h1")
        events = [ev("a", seat=1) for _ in range(batch)]
        assert not store.events.append(gid, 1, events, AppendOptions(guard=holds)).replayed
        assert store.events.version(gid) == 1 + batch
        version = store.events.version(gid)
        # a rotated token, a wrong path, an index past the end, a non-string: nothing is written
        for failing in (
            MetadataGuard(("seat_token_hashes", 1), "h0"),
            MetadataGuard(("seat_token_hashes", 2), "h1"),
            MetadataGuard(("nothing", "here"), "h1"),
            MetadataGuard(("seat_token_hashes",), "h1"),
        ):
            with pytest.raises(GuardFailed):
                store.events.append(gid, version, events, AppendOptions(guard=failing))
            assert not holds_in(failing, store.events.get_game(gid).metadata)
        # the guard comes before the idempotency replay and the version check
        store.events.append(gid, version, events, AppendOptions(idempotency_key="k", guard=holds))
        store.events.append(gid, version + batch, [rotated(1)],
                            AppendOptions(token=TokenChange(1, keyed(version + batch + 1))))
        with pytest.raises(GuardFailed):
            store.events.append(gid, version, events, AppendOptions(idempotency_key="k", guard=holds))
        with pytest.raises(GuardFailed):
            store.events.append(gid, 0, events, AppendOptions(guard=holds))
        assert store.events.version(gid) == version + batch + 1
        assert store.events.append(gid, version, events, AppendOptions(idempotency_key="k")).replayed
        with pytest.raises(GameNotFound):
            store.events.append(new_id(), 0, events, AppendOptions(guard=holds))
        assert store.events.verify_chain(gid).ok

    # -- immutability --------------------------------------------------------------

    def test_the_database_refuses_to_change_events(
        self, backend: Backend, store: Stores, new_id: NewId
    ) -> None:
        gid = new_id()
        started(gid, store.events, n=2)
        statements = [
            "UPDATE events SET payload = '{\"n\": 99}' WHERE game_id = ?",
            "UPDATE events SET seq = seq + 10 WHERE game_id = ?",
            "DELETE FROM events WHERE game_id = ?",
        ]
        for sql in statements:
            with pytest.raises(Exception, match="immutable"):
                backend.execute(sql, (gid,))
        assert [e.payload for e in store.events.load(gid)] == [{"i": 0}, {"i": 1}]
        # the games table is the mutable part
        backend.execute("UPDATE games SET status = 'finished' WHERE game_id = ?", (gid,))
        assert store.events.get_game(gid).status == "finished"

    # -- a seat's token hash, changed only with its rotation event ------------------------

    def test_a_token_change_is_written_with_its_rotation_event_and_nothing_else(
        self, store: Stores, new_id: NewId
    ) -> None:
        gid = new_id()
        store.events.create_game(gid, "test-game", {"seat_token_hashes": [keyed(0), None], "batch": "x"},
                                 [ev("set_up", None)], "playing")
        # guarded by the old hash: a second rotation that read it loses instead of undoing the first
        guard = MetadataGuard(("seat_token_hashes", 0), keyed(0))
        store.events.append(gid, 1, [rotated(0)], AppendOptions(guard=guard, token=TokenChange(0, keyed(2))))
        with pytest.raises(GuardFailed):
            store.events.append(gid, 2, [rotated(0)], AppendOptions(guard=guard, token=TokenChange(0, keyed(3))))
        assert store.events.get_game(gid).metadata == {"seat_token_hashes": [keyed(2), None], "batch": "x"}
        assert [e.type for e in store.events.load(gid)] == ["set_up", "seat_token_rotated"]
        # only one rotation event of that seat, by no seat, carries a token change
        for events, change in (
            ([ev()], TokenChange(0, keyed(3))),
            ([rotated(1)], TokenChange(0, keyed(3))),
            ([rotated(0), ev()], TokenChange(0, keyed(3))),
            ([NewEvent("seat_token_rotated", {"seat": 0}, 1, 0)], TokenChange(0, keyed(3))),
        ):
            with pytest.raises(ValueError):
                store.events.append(gid, 2, events, AppendOptions(token=change))
        # a seat with no token (a bot's) has nothing to rotate: the whole append is refused
        with pytest.raises(IntegrityError):
            store.events.append(gid, 2, [rotated(1)], AppendOptions(token=TokenChange(1, keyed(3))))
        assert store.events.version(gid) == 2 and store.events.verify_chain(gid).ok

    # -- lifecycle, awkward strings, signatures ----------------------------------------

    def test_ping_and_close(self, backend: Backend, new_id: NewId) -> None:
        store = backend.open()
        store.ping()
        store.close()
        with pytest.raises(StoreUnavailable):
            store.ping()
        with pytest.raises(StoreUnavailable):
            store.events.create_game(new_id(), "t", {}, [], "setup")

    def test_awkward_strings_survive_storage_and_hashing(self, store: Stores) -> None:
        """Hashes finished by the database must equal Python's for any text."""
        awkward = 'q"uo\\te \u00e9\u4e2d\U0001f682 \t\n\x01 </script> %s ? $1'
        gid = f"g-{awkward}-{time.monotonic_ns()}"
        store.events.create_game(gid, "test-game", {"note": awkward}, [ev("started", None, text=awkward)],
                                 "playing")
        appended = store.events.append(
            gid,
            1,
            [NewEvent(f"type {awkward}", {awkward: [awkward, {"k": awkward}]}, 1, 3), ev(text=awkward)],
            AppendOptions(idempotency_key=f"key {awkward}", request_hash=awkward),
        )
        loaded = store.events.load(gid)
        assert loaded[1:] == list(appended.events)
        assert loaded[1].payload == {awkward: [awkward, {"k": awkward}]}
        assert all(recompute_hash(e) == e.hash for e in loaded)
        assert store.events.verify_chain(gid).ok
        replayed = store.events.append(gid, 1, [ev()], AppendOptions(idempotency_key=f"key {awkward}"))
        assert replayed.request_hash == awkward
        assert store.events.get_game(gid).metadata == {"note": awkward}

    def test_every_event_is_signed_even_by_a_store_that_never_saw_the_game(
        self, backend: Backend, new_id: NewId
    ) -> None:
        from events.integrity.keyset import KeySet, first_bad_signature

        gid = new_id()
        first = backend.open()
        started(gid, first.events, n=3)
        other = backend.open()  # knows nothing of the game: on PostgreSQL its head is learnt from the database
        other.events.append(gid, 3, [NewEvent("tick", {"k": 4})])
        other.events.append(gid, 4, [NewEvent("tick", {"k": 5}), NewEvent("tick", {"k": 6})])
        first.events.append(gid, 6, [NewEvent("tick", {"k": 7})])  # its head is stale: learnt again
        events = first.events.load(gid)
        assert [e.seq for e in events] == [1, 2, 3, 4, 5, 6, 7] and first.events.verify_chain(gid).ok
        assert {e.key_id for e in events} == {TEST_SIGNER.key_id}
        assert first_bad_signature(events, KeySet([TEST_SIGNER.public])) is None


class TestEventStoreSqlite(EventStoreContract):
    backend_type = SqliteBackend


class TestEventStorePostgres(EventStoreContract):
    """Also what SQLite cannot show: its appends hold the write lock from
    their first read, and it has no TRUNCATE."""

    backend_type = PostgresBackend

    def test_a_guard_sees_a_change_committed_while_the_append_waited(
        self, backend: Backend, store: Stores, new_id: NewId
    ) -> None:
        """A token rotated between the append's first read and its write wins."""
        import psycopg

        gid = new_id()
        store.events.create_game(gid, "test-game", {"seat_token_hashes": ["h0"]}, [ev("started", None)],
                                 "playing")
        guard = MetadataGuard(("seat_token_hashes", 0), "h0")
        with psycopg.connect(backend.url) as blocker:
            blocker.execute("UPDATE games SET metadata = metadata || '{\"seat_token_hashes\": [\"new\"]}'::jsonb"
                            " WHERE game_id = %s", (gid,))
            outcome: list[object] = []
            worker = threading.Thread(target=lambda: outcome.append(_append_or_error(store.events, gid, guard)))
            worker.start()
            time.sleep(0.3)  # the append reads the old metadata, then waits for the row lock
            assert worker.is_alive()
            blocker.commit()
            worker.join(5)
        assert isinstance(outcome[0], GuardFailed)
        assert store.events.version(gid) == 1

    def test_the_database_refuses_to_truncate_events(
        self, backend: Backend, store: Stores, new_id: NewId
    ) -> None:
        gid = new_id()
        started(gid, store.events, n=2)
        with pytest.raises(Exception, match="immutable"):
            backend.execute("TRUNCATE events CASCADE")
        assert [e.payload for e in store.events.load(gid)] == [{"i": 0}, {"i": 1}]
