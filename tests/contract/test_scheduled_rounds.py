"""Scheduled rounds on every backend, by that backend's clock (SQLite: the
store's injected clock; PostgreSQL: the database's own, so the test waits
for real): a round created with ``start_at`` refuses every action until
then, the sweeper finds nothing due before it, and at its time one sweep
starts every table (``game_started`` by the database's time), after which
seats act and the clocks run from the start."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

import pytest

from domain.clocks import epoch_of
from service.errors import NotStarted
from service.usecases.batches import BatchService, TableSpec
from service.usecases.commands import ActionRequest
from service.usecases.organisers import OrganiserService
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.test_deadlines import FakeClock, _instance

NewId = Callable[[], str]
PER_TURN = {"kind": "per_turn", "seconds": 60}


class ScheduledRoundsContract(Contract):
    """A scheduled round's start, on one backend per subclass."""

    def test_a_round_waits_for_its_time_then_every_table_starts_at_once(
        self, backend: Backend, new_id: NewId
    ) -> None:
        clock = FakeClock()
        store, commands, sweeper = _instance(backend, clock)
        batches = BatchService(store.tournaments, store.deadlines,
                               OrganiserService(store.tournaments, store.deliveries), commands, 50)
        organiser = store.tournaments.create_organiser(new_id(), "Bay Area Open", "k1:0:" + "a" * 64)
        start = store.deadlines.database_time() + timedelta(seconds=6)  # room for the checks below on a busy machine
        tables = [TableSpec(("Ada", "Bo"), seed=f"r-{i}", time_control=PER_TURN, ref=f"t{i}",
                            player_refs=(f"p{i}a", f"p{i}b")) for i in range(3)]
        created = batches.create(organiser, "cable-car", tables, "Round 1", ref="ev-1/r1", start_at=start)
        assert created.batch.ref == "ev-1/r1" and created.batch.starts_at is not None
        assert store.tournaments.list_batches(organiser.organiser_id, ref_prefix="ev-1/").batches[0].batch_id == \
            created.batch.batch_id
        assert store.tournaments.list_batches(organiser.organiser_id, ref_prefix="ev-2/").batches == ()
        for game in created.games:
            assert game.status == "scheduled" and store.events.get_game(game.game_id).status == "scheduled"
            for seat, token in enumerate(game.seat_tokens):
                with pytest.raises(NotStarted) as refused:
                    commands.act(game.game_id, ActionRequest(f"Bearer {token}", {"type": "resign"}))
                assert refused.value.extra["starts_at"] == created.batch.starts_at, seat
        assert store.deadlines.database_time() < start, "the checks took longer than the time before the start"
        sweeper.timekeeper.sweep()  # nothing of this round is due before the start (the count may hold other tests')
        assert all(store.events.load(g.game_id)[-1].type == "game_scheduled" for g in created.games)
        while store.deadlines.database_time() < start:  # SQLite: the fake clock moves; PostgreSQL: real time passes
            clock.advance(0.25)
            time.sleep(0.05)
        for _ in range(10):  # a pass starts every table that is due (a database shared with other tests: a few)
            sweeper.timekeeper.sweep()
            if all(store.events.load(g.game_id)[-1].type == "game_started" for g in created.games):
                break
        starts = []
        for game in created.games:
            events = store.events.load(game.game_id)
            assert [e.type for e in events[-2:]] == ["game_scheduled", "game_started"]
            started = epoch_of(events[-1].recorded_at)
            assert started >= start.timestamp()  # never before its time, by the database's clock
            starts.append(started)
            loaded = commands.queries.load(game.game_id)
            assert not loaded.scheduled and loaded.clocks.deadline() == pytest.approx(started + 60)
            assert store.events.get_game(game.game_id).status == "playing"
        assert max(starts) - min(starts) < 2.0  # together
        sweeper.timekeeper.sweep()
        assert all(sum(e.type == "game_started" for e in store.events.load(g.game_id)) == 1 for g in created.games)
        game = created.games[0]
        outcome = commands.act(game.game_id, ActionRequest(f"Bearer {game.seat_tokens[0]}", {"type": "resign"}))
        assert [e["type"] for e in outcome.events][0] == "seat_resigned"


class TestScheduledRoundsSqlite(ScheduledRoundsContract):
    backend_type = SqliteBackend


class TestScheduledRoundsPostgres(ScheduledRoundsContract):
    backend_type = PostgresBackend
