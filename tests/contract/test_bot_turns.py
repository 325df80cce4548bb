"""The bot-turn index and its per-game leases (events.bot_turns), on every backend."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from events.database import Database
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import new_games, opening

NewId = Callable[[], str]

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def _era(k: int) -> datetime:
    """The time the ``k``-th test of this file starts from: each one a
    thousand days before the one above it, so that on the shared PostgreSQL
    database a test never sees the rows an earlier test left waiting."""
    return T0 - timedelta(days=1000 * k)


def _claim(store: Database, owner: str, at: float, limit: int = 10, lease: float = 5, ready: float = 0,
           era: int = 0) -> list[str]:
    now = _era(era) + timedelta(seconds=at)
    return store.claim_bot_turns(owner, now, lease, now - timedelta(seconds=ready), limit)


class BotTurnsContract(Contract):
    """Bot turns waiting, claimed and leased, on one backend per subclass."""

    def test_waiting_games_are_claimed_longest_waiting_first(self, store: Database, new_id: NewId) -> None:
        a, b, c = new_games(store, new_id, 3)
        store.set_bot_turn(a, 1, T0 + timedelta(seconds=2))
        store.set_bot_turn(b, 1, T0 + timedelta(seconds=1))
        store.set_bot_turn(c, 1, None)  # no bot seat must act
        assert _claim(store, "one", 0) == []
        assert _claim(store, "one", 1.5) == [b]
        assert _claim(store, "two", 3) == [a]  # b is held by "one"
        assert _claim(store, "two", 3, ready=10) == []  # a think delay: nothing waited that long

    def test_a_newer_version_wins_and_an_older_changes_nothing(self, store: Database, new_id: NewId) -> None:
        game = new_id()
        store.create_game(game, "ttr-sf", {}, opening(), "playing")
        store.set_bot_turn(game, 2, _era(1))
        store.set_bot_turn(game, 3, None)  # a person must act now
        store.set_bot_turn(game, 2, _era(1))  # a late writer of an older version
        assert _claim(store, "one", 10, era=1) == []
        store.set_bot_turn(game, 4, _era(1) + timedelta(seconds=5))
        assert _claim(store, "one", 10, era=1) == [game]

    def test_a_lease_is_held_until_released_or_lapsed(self, store: Database, new_id: NewId) -> None:
        game = new_id()
        store.create_game(game, "ttr-sf", {}, opening(), "playing")
        store.set_bot_turn(game, 1, _era(2))
        assert _claim(store, "one", 1, lease=5, era=2) == [game]
        assert _claim(store, "two", 5, era=2) == []
        store.release_bot_turn(game, "two")  # not its lease: nothing changes
        assert _claim(store, "two", 5.5, era=2) == []
        assert _claim(store, "two", 6.5, era=2) == [game]  # "one" died: its lease lapsed at 6 s
        store.release_bot_turn(game, "two")
        assert _claim(store, "one", 6.6, era=2) == [game]
        assert _claim(store, "two", 6.6, limit=0, era=2) == []

    def test_concurrent_claims_give_each_game_to_one_runner(self, backend: Backend, new_id: NewId) -> None:
        stores = [backend.open() for _ in range(4)]
        games = [new_id() for _ in range(30)]
        for game in games:
            stores[0].create_game(game, "ttr-sf", {}, opening(), "playing")
            stores[0].set_bot_turn(game, 1, _era(3))
        got: dict[str, list[str]] = {}
        barrier = threading.Barrier(len(stores))

        def runner(i: int) -> None:
            barrier.wait()
            mine: list[str] = []
            for _ in range(20):
                mine += _claim(stores[i], f"r{i}", 1, limit=3, era=3)
            got[f"r{i}"] = mine

        threads = [threading.Thread(target=runner, args=(i,)) for i in range(len(stores))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        claimed = [g for mine in got.values() for g in mine]
        assert sorted(claimed) == sorted(games)  # every game once, none twice
        for s in stores:
            s.close()


class TestBotTurnsSqlite(BotTurnsContract):
    backend_type = SqliteBackend


class TestBotTurnsPostgres(BotTurnsContract):
    backend_type = PostgresBackend
