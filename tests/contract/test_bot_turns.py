"""The bot-turn index and its per-game leases (events.recorders.bot_turns), on every backend."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from events import Stores
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import new_games, opening

NewId = Callable[[], str]

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def _era(k: int) -> datetime:
    """The time the ``k``-th test of this file starts from: each one a
    thousand days before the one above it, so that on the shared PostgreSQL
    database a test never sees the rows an earlier test left waiting."""
    return T0 - timedelta(days=1000 * k)


def _claim(store: Stores, owner: str, at: float, limit: int = 10, lease: float = 5, ready: float = 0,
           era: int = 0) -> list[str]:
    now = _era(era) + timedelta(seconds=at)
    return store.bot_turns.claim_bot_turns(owner, now, lease, now - timedelta(seconds=ready), limit)


class BotTurnsContract(Contract):
    """Bot turns waiting, claimed and leased, on one backend per subclass."""

    def test_waiting_games_are_claimed_longest_waiting_first(self, store: Stores, new_id: NewId) -> None:
        a, b, c = new_games(store.events, new_id, 3)
        store.bot_turns.set_bot_turn(a, 1, T0 + timedelta(seconds=2))
        store.bot_turns.set_bot_turn(b, 1, T0 + timedelta(seconds=1))
        store.bot_turns.set_bot_turn(c, 1, None)  # no bot seat must act
        assert _claim(store, "one", 0) == []
        assert _claim(store, "one", 1.5) == [b]
        assert _claim(store, "two", 3) == [a]  # b is held by "one"
        assert _claim(store, "two", 3, ready=10) == []  # a think delay: nothing waited that long

    def test_a_newer_version_wins_and_an_older_changes_nothing(self, store: Stores, new_id: NewId) -> None:
        game = new_id()
        store.events.create_game(game, "ttr-sf", {}, opening(), "playing")
        store.bot_turns.set_bot_turn(game, 2, _era(1))
        store.bot_turns.set_bot_turn(game, 3, None)  # a person must act now
        store.bot_turns.set_bot_turn(game, 2, _era(1))  # a late writer of an older version
        assert _claim(store, "one", 10, era=1) == []
        store.bot_turns.set_bot_turn(game, 4, _era(1) + timedelta(seconds=5))
        assert _claim(store, "one", 10, era=1) == [game]

    def test_a_lease_is_held_until_released_or_lapsed(self, store: Stores, new_id: NewId) -> None:
        game = new_id()
        store.events.create_game(game, "ttr-sf", {}, opening(), "playing")
        store.bot_turns.set_bot_turn(game, 1, _era(2))
        assert _claim(store, "one", 1, lease=5, era=2) == [game]
        assert _claim(store, "two", 5, era=2) == []
        store.bot_turns.release_bot_turn(game, "two")  # not its lease: nothing changes
        assert _claim(store, "two", 5.5, era=2) == []
        assert _claim(store, "two", 6.5, era=2) == [game]  # "one" died: its lease lapsed at 6 s
        store.bot_turns.release_bot_turn(game, "two")
        assert _claim(store, "one", 6.6, era=2) == [game]
        assert _claim(store, "two", 6.6, limit=0, era=2) == []

    def test_concurrent_claims_give_each_game_to_one_runner(self, backend: Backend, new_id: NewId) -> None:
        stores = [backend.open() for _ in range(4)]
        games = [new_id() for _ in range(30)]
        for game in games:
            stores[0].events.create_game(game, "ttr-sf", {}, opening(), "playing")
            stores[0].bot_turns.set_bot_turn(game, 1, _era(3))
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

    def test_claims_go_round_robin_across_creators(self, store: Stores, new_id: NewId) -> None:
        """Issue 36: one creator's 40 games, all waiting longer, do not starve another's one."""
        many, one, other = f"address:{new_id()}", f"organiser:{new_id()}", f"address:{new_id()}"
        crowd = new_games(store.events, new_id, 40)
        for i, game in enumerate(crowd):
            store.bot_turns.set_bot_turn(game, 1, _era(7) + timedelta(milliseconds=i), many)
        [lone] = new_games(store.events, new_id, 1)
        store.bot_turns.set_bot_turn(lone, 1, _era(7) + timedelta(seconds=5), one)
        # the first claim of one slot: the crowd's oldest (both creators were never served; it waited longer)
        assert _claim(store, "r", 10, limit=1, era=7) == [crowd[0]]
        # while it is in play, or once it took its turn and waits again, the other creator comes next
        assert _claim(store, "r", 11, limit=1, era=7) == [lone]
        # a claim of several slots takes every creator's first game before any creator's second
        [third] = new_games(store.events, new_id, 1)
        store.bot_turns.set_bot_turn(third, 1, _era(7) + timedelta(seconds=9), other)
        store.bot_turns.release_bot_turn(lone, "r")
        store.bot_turns.set_bot_turn(lone, 2, _era(7) + timedelta(seconds=12), one)
        # (the crowd's oldest is still held: its second game is its creator's second turn, after the others' first)
        assert set(_claim(store, "s", 13, limit=3, era=7)) == {third, lone, crowd[1]}

    def test_a_lone_game_moves_within_two_rounds_of_a_crowd(self, store: Stores, new_id: NewId) -> None:
        """Rounds of a one-slot runner: play (a new version waiting again), release, claim again."""
        many, one = f"address:{new_id()}", f"address:{new_id()}"
        crowd = new_games(store.events, new_id, 25)
        for i, game in enumerate(crowd):
            store.bot_turns.set_bot_turn(game, 1, _era(8) + timedelta(milliseconds=i), many)
        [lone] = new_games(store.events, new_id, 1)
        store.bot_turns.set_bot_turn(lone, 1, _era(8) + timedelta(seconds=3), one)
        versions = dict.fromkeys([*crowd, lone], 1)
        served: list[str] = []
        for turn in range(6):
            at = 10 + turn
            [game] = _claim(store, "r", at, limit=1, era=8)
            served.append(game)
            versions[game] += 1
            store.bot_turns.set_bot_turn(game, versions[game], _era(8) + timedelta(seconds=at, milliseconds=500))
            store.bot_turns.release_bot_turn(game, "r")
        # the lone game has a turn in every second round: the crowd's creator and its creator alternate
        assert [g == lone for g in served] == [False, True, False, True, False, True], served

    def test_runners_heartbeats_say_how_many_are_alive(self, store: Stores, new_id: NewId) -> None:
        now = _era(9)
        before = store.bot_turns.live_bot_runners(now)  # the shared database may hold other tests' runners (other eras)
        a, b = new_id(), new_id()
        store.bot_turns.beat_bot_runner(a, now, 10)
        store.bot_turns.beat_bot_runner(b, now, 10)
        assert store.bot_turns.live_bot_runners(now + timedelta(seconds=1)) == before + 2
        store.bot_turns.beat_bot_runner(a, now + timedelta(seconds=2), 10)  # renewed
        assert store.bot_turns.live_bot_runners(now + timedelta(seconds=11)) == before + 1  # b's lapsed
        store.bot_turns.beat_bot_runner(a, now + timedelta(seconds=11), 0)  # stopped
        assert store.bot_turns.live_bot_runners(now + timedelta(seconds=11)) == before


class TestBotTurnsSqlite(BotTurnsContract):
    backend_type = SqliteBackend


class TestBotTurnsPostgres(BotTurnsContract):
    backend_type = PostgresBackend
