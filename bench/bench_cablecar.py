"""Benchmark of the cable-car rules core.

Plays seeded random games (placements chosen with ``random.Random``), then
measures on a mid-game position (about 50 tiles on the board) and on the
opening position:

* ``legal_placements``: calls per second and single placements generated per
  second (the seat's legal first tiles);
* ``legal_placements(first=...)``: seconds-after-a-first calls per second;
* ``legal_pairs`` / ``legal_actions``: the number of legal actions and the
  time to list them all;
* ``decide``: moves decided per second (each recorded move re-decided);
* a full-game replay (every event folded with ``evolve``), in milliseconds.

Run: ``python bench/bench_cablecar.py [--repeat R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.cablecar import GAME  # noqa: E402
from domain.cablecar.actions import Action, LayTiles, Roll, StartRide  # noqa: E402
from domain.cablecar.candidates import legal_placements
from domain.cablecar.network import best_path  # noqa: E402
from domain.cablecar.pairs import legal_pairs  # noqa: E402
from domain.cablecar.state import CableCarState  # noqa: E402
from domain.core import Event, GameConfig, replay  # noqa: E402


def random_move(state: CableCarState, rnd: random.Random) -> Action:
    """A random legal move for the seat to play (rides as soon as it can)."""
    seat = state.turn
    player = state.players[seat]
    if player.riding:
        return Roll()
    if best_path(state.board, player.line, player.route) is not None:
        return StartRide()
    firsts = legal_placements(state, seat)
    rnd.shuffle(firsts)
    for first in firsts:
        seconds = legal_placements(state, seat, first)
        if seconds:
            return LayTiles((first, rnd.choice(seconds)))
    pairs = legal_pairs(state.board, player.hand)
    return LayTiles(rnd.choice(pairs)) if pairs else LayTiles((firsts[0],))


def play(players: int, seed: int) -> tuple[list[Event], list[tuple[CableCarState, int, Action]]]:
    """A full random game: its events and every (state before, seat, action)."""
    rnd = random.Random(seed)
    config = GameConfig(players=tuple(f"p{i}" for i in range(players)), seed=f"bench-{seed}")
    events = GAME.setup(config)
    state = replay(GAME, events)
    moves: list[tuple[CableCarState, int, Action]] = []
    while not state.finished:
        action = random_move(state, rnd)
        moves.append((state, state.turn, action))
        new = GAME.decide(state, state.turn, action)
        events += new
        state = replay(GAME, new, state)
    return events, moves


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """The best wall time of ``repeat`` runs of ``fn``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def mid_game(moves: list[tuple[CableCarState, int, Action]], tiles: int = 50) -> CableCarState:
    """The first recorded position with at least ``tiles`` tiles on the board."""
    for state, _, _ in moves:
        if state.board.tile_count() >= tiles and not state.players[state.turn].riding:
            return state
    return moves[len(moves) // 2][0]


def bench_position(name: str, state: CableCarState, repeat: int) -> None:
    """Print the move-generation numbers for one position."""
    seat = state.turn
    hand = state.players[seat].hand
    firsts = legal_placements(state, seat)
    calls = 50
    t = best_of(repeat, lambda: [legal_placements(state, seat) for _ in range(calls)])
    print(
        f"[{name}] board {state.board.tile_count()} tiles, hand {list(hand)}: "
        f"legal_placements {calls / t:,.0f} calls/s, {len(firsts) * calls / t:,.0f} placements/s "
        f"({len(firsts)} firsts)"
    )
    sample = firsts[:50]
    t = best_of(repeat, lambda: [legal_placements(state, seat, f) for f in sample])
    print(f"[{name}] legal_placements(first=...) {len(sample) / t:,.0f} calls/s")
    t_pairs = best_of(repeat, lambda: legal_pairs(state.board, hand))
    t_actions = best_of(repeat, lambda: GAME.legal_actions(state, seat))
    count = len(GAME.legal_actions(state, seat))
    print(
        f"[{name}] legal_pairs {t_pairs * 1000:,.0f} ms; legal_actions {count:,} actions in {t_actions * 1000:,.0f} ms"
    )


def main() -> None:
    """Run the benchmark and print its numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best is kept)")
    args = parser.parse_args()

    events, moves = play(4, 1)
    print(f"recorded a 4-player game: {len(moves)} moves, {len(events)} events")
    bench_position("opening", moves[0][0], args.repeat)
    bench_position("mid-game", mid_game(moves), args.repeat)

    t = best_of(args.repeat, lambda: [GAME.decide(s, seat, a) for s, seat, a in moves])
    print(f"decide: {len(moves) / t:,.0f} moves/s")
    t = best_of(args.repeat, lambda: replay(GAME, events))
    print(f"full-game replay: {len(events)} events in {t * 1000:.1f} ms ({len(events) / t:,.0f} events/s)")
    per_game = []
    for seed in range(2, 6):
        game_events, _ = play(2 + seed % 5, seed)
        per_game.append(best_of(args.repeat, lambda e=game_events: replay(GAME, e)) * 1000)  # type: ignore[misc]
    print(f"replay of 4 more games: median {statistics.median(per_game):.1f} ms")


if __name__ == "__main__":
    main()
