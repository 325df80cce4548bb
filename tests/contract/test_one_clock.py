"""One clock (issue 25): every time that decides a move is the database's.

Workers whose clocks are shifted by +15 s and -15 s write to one real
database: the times recorded stay the database's (so the deadlines derived
from them do), a timeout is never appended before its deadline, and an
action that reaches the log after a running deadline is refused in favour
of the timeout.  The append functions judge the time themselves (PostgreSQL:
migration 0030), so a worker that does not ask first is refused too."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from domain.cablecar.legal import legal_actions
from events import Stores
from events.encoding.timestamps import Clock, parse_timestamp
from events.records import AppendOptions, NewEvent, OutsideDeadline, StaleVersion
from service.adapters.cache import InProcessCache
from service.bootstrap import wire_games
from service.usecases.commands import ActionRequest, GameCommands
from service.usecases.creation import CreatedGame, GameRequest
from service.usecases.timekeeper import Timekeeper
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import TEST_HASHER, opening

SKEWS = (15.0, -15.0)
#: how far the database lets a recorded time be from its own (migration 0030)
TOLERANCE = 1.0


def _shifted(seconds: float) -> Clock:
    return lambda: datetime.now(UTC) + timedelta(seconds=seconds)


def _worker(backend: Backend, skew: float, sweeping: bool = True) -> tuple[Stores, GameCommands, Timekeeper]:
    """One service instance whose own clock is ``skew`` seconds off."""
    store = backend.open(clock=_shifted(skew))
    queries, commands, timekeeper = wire_games(store, InProcessCache(), TEST_HASHER, _shifted(skew))
    if not sweeping:
        queries.timekeeper = None
    return store, commands, timekeeper


def _create(commands: GameCommands, seconds: int) -> CreatedGame:
    return commands.creation.create(GameRequest("cable-car", ["a", "b", "c"], seed="one-clock",
                                    time_control={"kind": "per_turn", "seconds": seconds}))


def _move(commands: GameCommands, created: CreatedGame, seat: int = 0) -> None:
    loaded = commands.queries.load(created.record.game_id, settle=False)
    action = legal_actions(loaded.state, seat)[0]  # type: ignore[arg-type]
    commands.act(created.record.game_id, ActionRequest(f"Bearer {created.seat_tokens[seat]}", action.to_body()))


class OneClockContract(Contract):
    """The store judges a deadline inside the append, on every backend."""

    def test_the_store_judges_the_time_inside_the_append(
        self, backend: Backend, new_id: Callable[[], str]
    ) -> None:
        """On every backend: past ``not_after`` an append is late, before
        ``not_before`` early, and nothing is written either way."""
        store = backend.open()
        game = new_id()
        store.events.create_game(game, "test-game", {}, opening(), "playing")
        now = store.deadlines.database_time()
        with pytest.raises(OutsideDeadline) as late:
            store.events.append(game, 1, [NewEvent(type="moved", payload={})],
                                AppendOptions(not_after=now - timedelta(milliseconds=1)))
        with pytest.raises(OutsideDeadline) as early:
            store.events.append(game, 1, [NewEvent(type="moved", payload={})],
                                AppendOptions(not_before=now + timedelta(seconds=30)))
        assert (late.value.reason, early.value.reason) == ("late", "early")
        assert store.events.version(game) == 1
        result = store.events.append(game, 1, [NewEvent(type="moved", payload={})],
                                     AppendOptions(not_before=now, not_after=now + timedelta(seconds=30)))
        assert result.events[0].seq == 2


class DatabaseClockContract(OneClockContract):
    """Also skewed workers, on a database with a clock of its own (a server's):
    an embedded database's clock is its process's, so SQLite runs only
    :class:`OneClockContract`."""

    @pytest.mark.parametrize("skew", SKEWS)
    def test_recorded_times_are_the_databases_whatever_the_workers_clock(
        self, backend: Backend, skew: float
    ) -> None:
        store, commands, _ = _worker(backend, skew)
        database = backend.open()  # the database's clock, read by a store with a true one
        before = database.deadlines.database_time()
        created = _create(commands, 30)
        _move(commands, created)
        after = database.deadlines.database_time()
        events = store.events.load(created.record.game_id)
        assert len(events) >= 2
        for event in events:
            at = parse_timestamp(event.recorded_at)
            assert before - timedelta(seconds=TOLERANCE) <= at <= after + timedelta(seconds=TOLERANCE), (skew, event)

    @pytest.mark.parametrize("skew", SKEWS)
    def test_a_skewed_worker_cannot_time_a_seat_out_early(self, backend: Backend, skew: float) -> None:
        """The reported case: a lagging host's move started the next seat's clock
        15 s early, and a sweeper with a correct clock timed the seat out 6 s
        after the move on a 20 s clock.  Here both roles are skewed each way."""
        _, mover, _ = _worker(backend, skew)
        store, _, sweeper = _worker(backend, -skew)
        created = _create(mover, 10)
        _move(mover, created)
        moved_at = store.deadlines.database_time()
        game_id = created.record.game_id
        for timekeeper in (sweeper, mover.queries.timekeeper):
            assert timekeeper is not None
            timekeeper.settle(timekeeper.queries.load(game_id, settle=False))
            timekeeper.sweep()
        types = [e.type for e in store.events.load(game_id)]
        assert "seat_timed_out" not in types, (skew, types)
        assert store.deadlines.database_time() - moved_at < timedelta(seconds=5)  # the check above ran well before the deadline
        assert store.deadlines.estimated_time() - store.deadlines.database_time() < timedelta(seconds=TOLERANCE)

    @pytest.mark.parametrize("skew", SKEWS)
    def test_an_action_after_its_deadline_is_refused_and_the_timeout_wins(
        self, backend: Backend, skew: float
    ) -> None:
        """A worker that decided before the deadline (it does not settle here)
        appends after it: the append is refused, whatever its clock says, and the
        seat is timed out."""
        store, commands, timekeeper = _worker(backend, skew, sweeping=False)
        created = _create(commands, 1)
        game_id = created.record.game_id
        due = commands.queries.load(game_id, settle=False).clocks.deadline()
        assert due is not None
        while store.deadlines.database_time().timestamp() <= due + 0.05:
            time.sleep(0.05)
        with pytest.raises(StaleVersion):
            _move(commands, created)
        assert [e.type for e in store.events.load(game_id)].count("seat_timed_out") == 0  # nothing written by the refusal
        timekeeper.settle(commands.queries.load(game_id, settle=False))
        events = store.events.load(game_id)
        timed_out = [e for e in events if e.type == "seat_timed_out"]
        assert len(timed_out) == 1 and all(e.seat is None for e in events[1:])
        assert parse_timestamp(timed_out[0].recorded_at).timestamp() >= due

    def test_the_database_refuses_a_time_that_is_not_its_own(
        self, backend: Backend, new_id: Callable[[], str]
    ) -> None:
        """A worker that stamps its own clock without measuring (a skewed clock
        that never asks) is refused, then measures and gets in with the database's time."""
        store = backend.open(clock=_shifted(-15))
        database = backend.open()
        game = new_id()
        store.database.clock_offset.offset = timedelta(0)  # type: ignore[attr-defined]  # as if it trusted its own clock
        created = store.events.create_game(game, "test-game", {}, opening(), "playing")
        store.database.clock_offset.offset = timedelta(0)  # type: ignore[attr-defined]
        appended = store.events.append(game, 1, [NewEvent(type="moved", payload={})]).events
        for event in (*created, *appended):
            at = parse_timestamp(event.recorded_at)
            assert abs((at - database.deadlines.database_time()).total_seconds()) < TOLERANCE, event
        assert abs(store.database.clock_offset.offset.total_seconds() - 15) < TOLERANCE  # type: ignore[attr-defined]
        assert store.events.verify_chain(game).ok

    def test_recorded_times_never_go_back_across_workers(
        self, backend: Backend, new_id: Callable[[], str]
    ) -> None:
        """A worker whose estimate runs 0.8 s ahead (within the tolerance) writes;
        the next worker, estimating right, is refused once and then stamps no
        earlier than that event."""
        ahead, right = backend.open(), backend.open()
        game = new_id()
        ahead.events.create_game(game, "test-game", {}, opening(), "playing")
        ahead.deadlines.estimated_time()
        ahead.database.clock_offset.offset += timedelta(seconds=0.8)  # type: ignore[attr-defined,operator]
        first = ahead.events.append(game, 1, [NewEvent(type="moved", payload={})]).events[0]
        second = right.events.append(game, 2, [NewEvent(type="moved", payload={})]).events[0]
        assert second.recorded_at >= first.recorded_at
        assert right.events.verify_chain(game).ok

    @pytest.mark.parametrize("skew", SKEWS)
    def test_a_late_action_with_its_version_gets_the_version_after_the_timeout(
        self, backend: Backend, skew: float
    ) -> None:
        """The worker's estimate lags the deadline (so it does not settle first);
        the append is refused as late, the worker measures again, times the seat
        out and answers stale_version with the version after the timeout."""
        store, commands, _ = _worker(backend, skew)
        created = _create(commands, 1)
        game_id = created.record.game_id
        loaded = commands.queries.load(game_id, settle=False)
        due = loaded.clocks.deadline()
        assert due is not None
        while store.deadlines.database_time().timestamp() <= due + 0.05:
            time.sleep(0.05)
        store.database.clock_offset.offset -= timedelta(seconds=3)  # type: ignore[attr-defined,operator]
        action = legal_actions(loaded.state, 0)[0]  # type: ignore[arg-type]
        request = ActionRequest(f"Bearer {created.seat_tokens[0]}", action.to_body(), expected_version=loaded.version)
        with pytest.raises(StaleVersion) as refused:
            commands.act(game_id, request)
        assert refused.value.current > loaded.version
        events = store.events.load(game_id)
        assert [e.type for e in events].count("seat_timed_out") == 1 and all(e.seat is None for e in events[1:])


class TestOneClockSqlite(OneClockContract):
    backend_type = SqliteBackend


class TestOneClockPostgres(DatabaseClockContract):
    backend_type = PostgresBackend
