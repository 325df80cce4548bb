"""What the PostgreSQL append costs under contention, and which part of it.

Many processes append to games of their own (no two touch one game) through
``events.postgres.PostgresStore`` as fast as they can, for a few
seconds per variant, on a scratch database:

* **as shipped**: the append functions of the migrations;
* **no NOTIFY**: the trigger that announces new versions (SSE wake-ups) off;
* **no position lock**: ``cablecar_append`` rewritten in the scratch
  database without ``pg_advisory_xact_lock``, the global lock under which
  positions are drawn and held until commit (it keeps the global log free of
  gaps for readers: see ``events/postgres/store.py``).

The last two are not correct configurations of the service; they price the
two global serialisation points of an append.  Variants alternate over
``--rounds`` so background noise hits each one; appends/s are summed per
variant and printed as ratios to "as shipped".

    eval "$(scripts/test-services.sh up)"
    python bench/bench_append_contention.py --processes 12 --seconds 8 --rounds 2
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from queue import Queue

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from events.postgres import POSITION_LOCK_KEY, PostgresStore  # noqa: E402
from events.store import MetadataGuard, NewEvent  # noqa: E402

GUARD = MetadataGuard(("seat_token_hashes", 0), "a" * 64)


def _appender(url: str, seconds: float, events: int, out: Queue[int]) -> None:
    store = PostgresStore(url)
    game_id = secrets.token_hex(8)
    store.create_game(game_id, "bench", {"seat_token_hashes": ["a" * 64]}, [NewEvent("s", {"n": 0}, 1, None)], "playing")
    version, done, end = 1, 0, time.monotonic() + seconds
    while time.monotonic() < end:
        batch = [NewEvent("a", {"n": version + i, "x": "y" * 60}, 1, 0) for i in range(events)]
        store.append(game_id, version, batch, idempotency_key=f"k{version}", request_hash="h", status="playing",
                     guard=GUARD)
        version += events
        done += 1
    out.put(done)
    store.close()


def _measure(url: str, processes: int, seconds: float, events: int) -> float:
    out: Queue[int] = mp.Queue()  # type: ignore[assignment]
    workers = [mp.Process(target=_appender, args=(url, seconds, events, out)) for _ in range(processes)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(out.get() for _ in workers) / seconds


def main() -> None:
    """Run every variant and print appends/s and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--events", type=int, default=2, help="events per append (a ttr-sf action averages ~2.2)")
    args = parser.parse_args()
    base_url = os.environ.get("CABLECAR_TEST_DATABASE_URL") or os.environ["DATABASE_URL"]
    name = "bench_contention_" + secrets.token_hex(4)
    with psycopg.connect(base_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    url = base_url.rsplit("/", 1)[0] + "/" + name
    try:
        PostgresStore(url).close()
        store = PostgresStore(url)
        store.create_game("migrate", "bench", {}, [NewEvent("s", {"n": 0}, 1, None)], "playing")
        store.close()

        def sql(statement: str) -> None:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(statement)  # type: ignore[arg-type]

        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT pg_get_functiondef('cablecar_append'::regproc)").fetchone()
        assert row is not None
        shipped = str(row[0])
        lock = f"PERFORM pg_advisory_xact_lock({POSITION_LOCK_KEY});"
        assert lock in shipped, "the append function no longer takes the position lock this way"
        variants: dict[str, Callable[[], None]] = {
            "as shipped": lambda: (sql(shipped), sql("ALTER TABLE games ENABLE TRIGGER games_notify_version")),
            "no NOTIFY": lambda: (sql(shipped), sql("ALTER TABLE games DISABLE TRIGGER games_notify_version")),
            "no position lock": lambda: (sql(shipped.replace(lock, "")),
                                         sql("ALTER TABLE games ENABLE TRIGGER games_notify_version")),
        }
        rates: dict[str, list[float]] = {v: [] for v in variants}
        for r in range(args.rounds):
            for variant, install in variants.items():
                install()
                rate = _measure(url, args.processes, args.seconds, args.events)
                rates[variant].append(rate)
                print(f"round {r + 1} {variant:18s} {rate:8.0f} appends/s", flush=True)
        base = sum(rates["as shipped"]) / len(rates["as shipped"])
        print(f"\n{args.processes} processes, {args.events} events per append, {args.rounds} x {args.seconds:g} s each")
        for variant, values in rates.items():
            mean = sum(values) / len(values)
            print(f"{variant:18s} {mean:8.0f} appends/s  x{mean / base:.2f}")
    finally:
        with psycopg.connect(base_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
