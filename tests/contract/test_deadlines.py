"""The deadline index and the sweeper's lease (events.recorders.deadlines), on every
backend, and the timeout sweep of two service instances sharing one
database: exactly one ``seat_timed_out`` per deadline."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from events import Stores
from service.adapters.cache import InProcessCache
from service.bootstrap import wire_games
from service.usecases.commands import GameCommands
from service.usecases.creation import GameRequest
from service.usecases.timekeeper import Sweeper
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import TEST_HASHER, new_games

NewId = Callable[[], str]

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self) -> None:
        self.now = T0
        self.lock = threading.Lock()

    def __call__(self) -> datetime:
        with self.lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += timedelta(seconds=seconds)


def _instance(backend: Backend, clock: FakeClock) -> tuple[Stores, GameCommands, Sweeper]:
    """One service instance: its own store connection, cache and sweeper."""
    store = backend.open(clock=clock)
    games = wire_games(store, InProcessCache(), TEST_HASHER, clock)
    return store, games.commands, Sweeper(games.timekeeper)


class DeadlinesContract(Contract):
    """Deadlines, the sweeper's lease and two sweeping instances, on one backend per subclass."""

    def test_due_games_come_earliest_first_and_newer_versions_win(
        self, store: Stores, new_id: NewId
    ) -> None:
        a, b, c = new_games(store.events, new_id, 3)
        store.deadlines.set_deadline(a, 1, T0 + timedelta(seconds=30))
        store.deadlines.set_deadline(b, 1, T0 + timedelta(seconds=10))
        store.deadlines.set_deadline(c, 1, None)
        assert store.deadlines.due_games(T0) == []
        assert store.deadlines.due_games(T0 + timedelta(seconds=10)) == [b]
        assert store.deadlines.due_games(T0 + timedelta(seconds=60)) == [b, a]
        store.deadlines.set_deadline(b, 3, None)  # the game moved on: nothing runs
        store.deadlines.set_deadline(b, 2, T0)  # a late writer of an older version changes nothing
        assert store.deadlines.due_games(T0 + timedelta(seconds=60)) == [a]
        assert store.deadlines.due_games(T0 + timedelta(seconds=60), limit=0) == []

    def test_one_lease_holder_at_a_time_until_it_expires(self, store: Stores) -> None:
        assert store.deadlines.hold_lease("sweep", "one", T0, 5)
        assert not store.deadlines.hold_lease("sweep", "two", T0 + timedelta(seconds=4), 5)
        assert store.deadlines.hold_lease("sweep", "one", T0 + timedelta(seconds=4), 5)  # renewed until 9 s
        assert not store.deadlines.hold_lease("sweep", "two", T0 + timedelta(seconds=8), 5)
        assert store.deadlines.hold_lease("sweep", "two", T0 + timedelta(seconds=9.5), 5)  # "one" died
        assert not store.deadlines.hold_lease("sweep", "one", T0 + timedelta(seconds=10), 5)
        assert store.deadlines.hold_lease("other", "one", T0, 5)  # leases are independent

    def test_the_database_clock_is_aware_utc(self, store: Stores) -> None:
        now = store.deadlines.database_time()
        assert now.tzinfo is not None and abs((now - datetime.now(UTC)).total_seconds()) < 60

    def test_two_instances_sweeping_one_database_time_out_each_deadline_once(
        self, backend: Backend, tmp_path: Path
    ) -> None:
        clock = FakeClock()
        (store_a, commands_a, sweeper_a), (_, _, sweeper_b) = _instance(backend, clock), _instance(backend, clock)
        games = [
            commands_a.creation.create(GameRequest("cable-car", ["a", "b", "c"], seed=f"sweep-{i}",
                                       time_control={"kind": "per_turn", "seconds": 2})).record.game_id
            for i in range(6)
        ]
        errors: list[BaseException] = []
        stop = threading.Event()

        def sweep(sweeper: Sweeper) -> None:
            try:
                while not stop.is_set():
                    sweeper.run_once()
                    sweeper.timekeeper.sweep()  # also sweep without the lease: the versions must still hold
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=sweep, args=(s,)) for s in (sweeper_a, sweeper_b)]
        for t in threads:
            t.start()
        try:
            for round_ in (1, 2):  # two deadlines per game, one after the other; then one seat is left
                clock.advance(2)  # on PostgreSQL the database's clock decides: 2 s pass for real too
                deadline = datetime.now(UTC) + timedelta(seconds=30)
                while datetime.now(UTC) < deadline:
                    timed_out = [sum(e.type == "seat_timed_out" for e in store_a.events.load(g)) for g in games]
                    if all(n >= round_ for n in timed_out):
                        break
        finally:
            stop.set()
            for t in threads:
                t.join(30)
        assert not errors, errors
        for game in games:
            events = store_a.events.load(game)
            seats = [e.payload["seat"] for e in events if e.type == "seat_timed_out"]
            assert len(seats) == 2 and len(set(seats)) == 2, f"each deadline once in {game}: {seats}"
            assert events[-1].type == "game_ended" and events[-1].payload["reason"] == "forfeit"
            assert all(e.seat is None for e in events if e.type == "seat_timed_out")


class TestDeadlinesSqlite(DeadlinesContract):
    backend_type = SqliteBackend


class TestDeadlinesPostgres(DeadlinesContract):
    backend_type = PostgresBackend
