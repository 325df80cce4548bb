"""Bot runners at work: many games of server bots on one store, played by
runner(s) in this process; per strategy, the latency of a bot move (from the
event that made the seat's turn to the bot's first event, both stamped by
the store) and the CPU time of the deciding thread per move.

    python -m bench.bench_bot_runner --games 50 --runners 2     # embedded SQLite in a temporary folder
    DATABASE_URL=postgresql://... python -m bench.bench_bot_runner --games 200

Each game is 2-player: ttr-sf (planner vs greedy) and cable-car (planner vs
random), half each.  Runners here are threads of one process (the CPU per
move is the deciding thread's, so it holds whatever else runs).

``--load`` measures bots under load instead (:mod:`bench.load.botload`):
gunicorn serving games where every seat but one is a bot, the person seats
played over HTTP, runner processes of their own; request latencies with and
without the bot load, bot move latency and CPU per move per strategy:

    python -m bench.bench_bot_runner --load --games 200 --seconds 60
    python -m bench.bench_bot_runner --load --games 200 --seconds 60 --postgres   # test services' PostgreSQL + Redis
    bash bench/run.sh --only bot-load --games 200 --seconds 60
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from collections import defaultdict
from datetime import datetime
from typing import Any

import events
from bots.runner import BotRunner
from service.adapters.cache import InProcessCache
from service.adapters.tokens import TokenHasher
from service.bootstrap import wire_games
from service.usecases.bot_seats import bot_seats
from service.usecases.creation import GameRequest

#: the keyed token hashes of the bench's games (a server derives its key from its secret)
BENCH_HASHER = TokenHasher(b"the bot runner bench's token key, 32+ bytes")

def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--runners", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=None,
                        help="give up after this long (default 600); with --load: each phase's length (default 60)")
    parser.add_argument("--load", action="store_true", help="bots under load (bench.load.botload), over HTTP")
    parser.add_argument("--clients", type=int, default=20, help="--load: person client threads")
    parser.add_argument("--pace-ms", type=float, default=100, help="--load: ms per game visited, per client")
    parser.add_argument("--think-ms", type=int, default=50, help="--load: the mcts budget per move")
    parser.add_argument("--postgres", action="store_true",
                        help="--load: PostgreSQL + Redis of CABLECAR_TEST_DATABASE_URL / CABLECAR_TEST_REDIS_URL")
    parser.add_argument("--out", default=None, help="--load: also write the tables to this file")
    args = parser.parse_args()
    if args.load:
        load(args)
        return
    args.seconds = 600 if args.seconds is None else args.seconds
    folder = tempfile.mkdtemp(prefix="bench-bots-")
    stores = events.open_store(os.environ.get("DATABASE_URL"), folder)
    _, commands, _ = wire_games(stores, InProcessCache(4096), BENCH_HASHER)
    create = commands.creation.create
    games = []
    for i in range(args.games):
        if i % 2 == 0:
            created = create(GameRequest("ttr-sf", ["P", "G"], seed=f"bench-{i}", bots=["planner", "greedy"]))
        else:
            created = create(GameRequest("cable-car", ["P", "R"], seed=f"bench-{i}", bots=["planner", "random"]))
        games.append(created.record.game_id)
    cpu: dict[str, list[float]] = defaultdict(list)
    lock = threading.Lock()
    runners = []
    for _ in range(args.runners):
        queries, cmds, _ = wire_games(stores, InProcessCache(4096), BENCH_HASHER)
        runner = BotRunner(queries, cmds, stores.bot_turns, stores.deadlines, interval=0.02)
        original = runner.move

        def timed(loaded: Any, seat: int, conflicted: list[bool] | None = None, original: Any = original) -> bool:
            started = time.thread_time()
            moved = bool(original(loaded, seat, conflicted))
            if moved:
                name = f"{loaded.record.game_type} {bot_seats(loaded.record.metadata)[seat]}"
                with lock:
                    cpu[name].append(time.thread_time() - started)
            return moved

        runner.move = timed  # type: ignore[method-assign]
        runners.append(runner)
    threads = [threading.Thread(target=r.run, daemon=True) for r in runners]
    started = time.perf_counter()
    for t in threads:
        t.start()
    while time.perf_counter() - started < args.seconds:
        if all(stores.events.get_game(g).status in ("finished", "cancelled") for g in games):
            break
        time.sleep(0.5)
    elapsed = time.perf_counter() - started
    for r in runners:
        r.stop()
    latency: dict[str, list[float]] = defaultdict(list)
    for g in games:
        record = stores.events.get_game(g)
        bots = bot_seats(record.metadata)
        previous: datetime | None = None
        prev_seat: int | None = None
        for e in stores.events.load(g):
            at = datetime.fromisoformat(e.recorded_at.replace("Z", "+00:00"))
            # the first event of a seat's move after another author's event: the seat's turn had just begun
            if e.seat is not None and previous is not None and e.seat != prev_seat:
                latency[f"{record.game_type} {bots[e.seat]}"].append((at - previous).total_seconds())
            previous, prev_seat = at, e.seat
    done = sum(stores.events.get_game(g).status == "finished" for g in games)
    moves = sum(r.stats.moves for r in runners)
    print(f"{args.games} games ({done} finished) by {args.runners} runner(s) in {elapsed:.1f} s: {moves} moves, "
          f"{sum(r.stats.conflicts for r in runners)} conflicts, {sum(r.stats.errors for r in runners)} errors")
    print("| game, bot | moves | latency p50 / p95 (ms) | CPU per move p50 / p95 (ms) |")
    print("|---|---|---|---|")
    for name in sorted(cpu):
        lat, c = latency.get(name, []), cpu[name]
        print(f"| {name} | {len(c)} | {1000 * statistics.median(lat) if lat else float('nan'):.0f} / "
              f"{1000 * _pct(lat, 0.95):.0f} | {1000 * statistics.median(c):.1f} / {1000 * _pct(c, 0.95):.1f} |")
    stores.close()


def _fresh_database(base_url: str) -> str:
    """A new database on ``base_url``'s server, migrated (the load run writes thousands of events)."""
    import secrets

    import psycopg

    from events.factory import migrate

    name = f"cablecar_botload_{secrets.token_hex(4)}"
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = base_url.rsplit("/", 1)[0] + "/" + name
    migrate(url)
    return url


def load(args: argparse.Namespace) -> None:
    """``--load``: :func:`bench.load.botload.run_bot_load`, its tables to stdout (and ``--out``)."""
    import shlex
    import sys
    from pathlib import Path

    from bench.load.botload import render, run_bot_load

    work = Path(tempfile.mkdtemp(prefix="bench-botload-"))
    if args.postgres:
        url, redis = os.environ.get("CABLECAR_TEST_DATABASE_URL"), os.environ.get("CABLECAR_TEST_REDIS_URL")
        if not url or not redis:
            raise SystemExit("--postgres needs CABLECAR_TEST_DATABASE_URL and CABLECAR_TEST_REDIS_URL "
                             "(eval \"$(scripts/test-services.sh up)\")")
        url = _fresh_database(url)
        env, label = {"DATABASE_URL": url, "REDIS_URL": redis}, "PostgreSQL + Redis"
    else:
        env, label = {"CABLECAR_DATA_DIR": str(work / "data")}, "SQLite (embedded default)"
    result = run_bot_load(work, args.games, 60 if args.seconds is None else args.seconds, max(1, args.runners),
                          args.clients, args.pace_ms / 1000, args.think_ms, env, label)
    command = os.environ.get("CABLECAR_BENCH_COMMAND") or shlex.join(
        ["python", "-m", "bench.bench_bot_runner", *sys.argv[1:]])
    text = render([result], command)
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
