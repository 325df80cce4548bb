"""Benchmark of the ttr-sf rules core.

Plays a few full random games (legal actions chosen by a seeded
``random.Random``), records them, then measures:

* ``evolve``: events applied per second while replaying every recorded game;
* ``decide``: actions decided per second (each recorded move re-decided from
  the state it was played in);
* the time of one full 4-player game replay, in milliseconds;
* ``legal_actions``: calls per second over the recorded states.

Run: ``python bench/bench_ttr.py [--games N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.core import Action, Event, GameConfig, replay  # noqa: E402
from domain.ttr import GAME, TtrState  # noqa: E402


@dataclass(frozen=True)
class Recorded:
    """One played game: its events and every move with the state before it."""

    players: int
    events: tuple[Event, ...]
    moves: tuple[tuple[TtrState, int, Action], ...]


def record_game(players: int, seed: int) -> Recorded:
    """Play one random legal game to the end."""
    rnd = random.Random(seed)
    names = tuple(f"P{i}" for i in range(players))
    events = GAME.setup(GameConfig(players=names, seed=f"bench-{seed}", start_seat=seed % players))
    state = replay(GAME, events)
    moves: list[tuple[TtrState, int, Action]] = []
    while GAME.status(state) != "finished":
        seat = rnd.choice(GAME.active_seats(state))
        action = rnd.choice(GAME.legal_actions(state, seat))
        batch = GAME.decide(state, seat, action)
        moves.append((state, seat, action))
        state = replay(GAME, batch, state)
        events += batch
    return Recorded(players, tuple(events), tuple(moves))


def best_of(repeat: int, fn: object) -> float:
    """The fastest of ``repeat`` timings of ``fn()`` in seconds."""
    assert callable(fn)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per player count (2, 3, 4)")
    parser.add_argument("--repeat", type=int, default=5, help="timing repetitions (best is kept)")
    args = parser.parse_args()

    games = [record_game(players, seed) for players in (2, 3, 4) for seed in range(args.games)]
    n_events = sum(len(g.events) for g in games)
    n_moves = sum(len(g.moves) for g in games)
    print(f"recorded {len(games)} games: {n_events} events, {n_moves} moves")

    def replay_all() -> None:
        for game in games:
            replay(GAME, game.events)

    def decide_all() -> None:
        for game in games:
            for state, seat, action in game.moves:
                GAME.decide(state, seat, action)

    def legal_all() -> None:
        for game in games:
            for state, seat, _ in game.moves:
                GAME.legal_actions(state, seat)

    evolve_s = best_of(args.repeat, replay_all)
    decide_s = best_of(args.repeat, decide_all)
    legal_s = best_of(args.repeat, legal_all)
    print(f"evolve:        {n_events / evolve_s:12,.0f} events/s")
    print(f"decide:        {n_moves / decide_s:12,.0f} actions/s")
    print(f"legal_actions: {n_moves / legal_s:12,.0f} calls/s")

    four = [g for g in games if g.players == 4]
    per_game = []
    for game in four:
        per_game.append(best_of(args.repeat, lambda game=game: replay(GAME, game.events)) * 1000)
    sizes = [len(g.events) for g in four]
    print(
        f"4-player game replay: mean {statistics.mean(per_game):.2f} ms, max {max(per_game):.2f} ms "
        f"({min(sizes)}-{max(sizes)} events)"
    )


if __name__ == "__main__":
    main()
