"""What a shared cache entry costs against what it saves.

For a 4-player ttr-sf game and a 4-player cable-car game (seeded random
games, measured mid-game and at the end) it measures

* the state codec of the Redis cache (``service/adapters/statecodec.py``): encode,
  decode and a round trip, and the entry's size;
* replaying the game's events from the first (``domain.core.replay`` of
  already decoded events: what a cache miss costs at least, before reading
  and decoding the rows);
* pickle's round trip of the same state, for reference only (the cache no
  longer uses it: a pickle from Redis could run code).

Each figure is the median of ``--repeat`` timed batches.

    python bench/bench_cache.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.clocks import NO_TIME_CONTROL, Clocks  # noqa: E402
from domain.core import Event, GameConfig, GameDefinition, replay  # noqa: E402
from domain.registry import GAMES  # noqa: E402
from service.adapters.statecodec import Snapshot, StateCodec  # noqa: E402


def play(game: GameDefinition[Any], players: int, seed: str) -> list[Event]:
    """The events of a seeded random game, played to its end."""
    rnd = random.Random(seed)
    events = game.setup(GameConfig(players=tuple(f"p{i}" for i in range(players)), seed=seed))
    state = replay(game, events)
    while not game.is_over(state):
        seat = rnd.choice(game.active_seats(state))
        produced = game.decide(state, seat, rnd.choice(list(game.legal_actions(state, seat))))
        events += produced
        state = replay(game, produced, state)
    return events


def per_call(work: Callable[[], object], repeat: int, budget: float = 0.2) -> float:
    """Median seconds of one call of ``work``."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget / 4:
        work()
        n += 1
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(n):
            work()
        samples.append((time.perf_counter() - start) / n)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    codec = StateCodec(GAMES.values())
    print(f"{'state':<24}{'events':>7}{'bytes':>7}{'encode':>10}{'decode':>10}{'round trip':>12}"
          f"{'replay':>10}{'saved':>8}{'pickle rt':>11}")
    for type_id in ("ttr-sf", "cable-car"):
        game = GAMES[type_id]
        events = play(game, 4, f"bench-cache-{type_id}")
        for label, upto in (("mid-game", len(events) // 2), ("end", len(events))):
            tail = events[:upto]
            game_state = replay(game, tail)
            clocks = Clocks.start(NO_TIME_CONTROL, game.seat_count(game_state), game.moment(game_state, 0.0))
            state = Snapshot(game_state, clocks)  # what the cache keeps
            data = codec.encode(state)
            assert codec.decode(data) == state
            encode = per_call(lambda s=state: codec.encode(s), args.repeat)
            decode = per_call(lambda d=data: codec.decode(d), args.repeat)
            both = per_call(lambda s=state: codec.decode(codec.encode(s)), args.repeat)
            rebuilt = per_call(lambda g=game, t=tail: replay(g, t), args.repeat)
            pickled = per_call(lambda s=state: pickle.loads(pickle.dumps(s)), args.repeat)
            print(f"{type_id + ' 4p ' + label:<24}{upto:>7}{len(data):>7}{encode * 1e3:>8.3f}ms"
                  f"{decode * 1e3:>8.3f}ms{both * 1e3:>10.3f}ms{rebuilt * 1e3:>8.3f}ms"
                  f"{rebuilt / decode:>7.1f}x{pickled * 1e3:>9.3f}ms")
    print("saved: replay time / decode time (what a reader gains from an entry)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
