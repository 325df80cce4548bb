"""Event-store overhead: our layer against bare driver calls on the same table.

For each backend it measures

* single-event appends per second through ``EventStore.append`` (row lock /
  write lock, version check, hashing, position lock, game row update) next to
  bare autocommit ``INSERT``s of the same rows into the same ``events`` table
  with the same driver;
* loading a 300-event game through ``EventStore.load`` (envelopes with
  decoded payloads) next to a bare ``SELECT ... ORDER BY seq`` + ``fetchall``;

and prints the ratios (ours / bare, lower is better; the aim is <= 1.5x).

    python bench/bench_store.py                       # sqlite, plus postgres if CABLECAR_TEST_DATABASE_URL is set
    python bench/bench_store.py --backend postgres --appends 3000

PostgreSQL runs in a throwaway database created on the server named by
``--postgres-url`` / ``CABLECAR_TEST_DATABASE_URL`` and dropped afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.envelope import GENESIS_HASH, seal  # noqa: E402
from events.store import EventStore, NewEvent  # noqa: E402

PAYLOAD = {
    "seat": 1,
    "route": "golden-gate-bridge--fort-mason",
    "cards": {"red": 3, "ferry": 1, "locomotive": 1},
    "souvenir": "bridge",
    "points": 10,
}
COLUMNS = "game_id, seq, type, schema_version, payload, recorded_at, seat, idempotency_key, prev_hash, hash"


@dataclass(frozen=True)
class Result:
    """One measured figure: ours and bare, in seconds for the same work."""

    name: str
    ours: float
    bare: float
    unit: str
    count: int

    def line(self) -> str:
        if self.unit == "appends/s":
            ours, bare = self.count / self.ours, self.count / self.bare
            figures = f"ours {ours:9.0f} {self.unit}   bare {bare:9.0f} {self.unit}"
        else:
            figures = f"ours {self.ours * 1000:9.2f} ms        bare {self.bare * 1000:9.2f} ms      "
        return f"{self.name:<28} {figures}   ratio {self.ours / self.bare:4.2f}x"


def rows_for(game_id: str) -> Iterator[tuple[Any, ...]]:
    """Sealed rows (what our layer would write) for the bare inserts, seq 1, 2, ..."""
    event = NewEvent("route_claimed", PAYLOAD, 2, 1)
    prev_hash, seq = GENESIS_HASH, 0
    while True:
        e = seal(game_id, seq, prev_hash, [event], "2024-01-01T00:00:00.000000Z")[0]
        yield (
            e.game_id,
            e.seq,
            e.type,
            e.schema_version,
            e.payload_json,
            e.recorded_at,
            e.seat,
            None,
            e.prev_hash,
            e.hash,
        )
        prev_hash, seq = e.hash, e.seq


def interleave(
    ours: Callable[[int], float], bare: Callable[[int], float], n: int, rounds: int
) -> tuple[float, float]:
    """Total seconds of ``n`` operations each way, measured in ``rounds``
    alternating chunks so that machine load drifts hit both sides alike."""
    chunk = max(1, n // rounds)
    ours_total = bare_total = 0.0
    for _ in range(rounds):
        ours_total += ours(chunk)
        bare_total += bare(chunk)
    return ours_total, bare_total


class Appender:
    """Single-event appends to one game through the store."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.game_id = f"bench-{uuid.uuid4().hex[:12]}"
        store.create_game(self.game_id, "ttr-sf", {}, [], "playing")
        self.version = 0
        self.event = NewEvent("route_claimed", PAYLOAD, 2, 1)

    def __call__(self, n: int) -> float:
        t0 = time.perf_counter()
        for _ in range(n):
            self.store.append(self.game_id, self.version, [self.event])
            self.version += 1
        return time.perf_counter() - t0


class BareInserter:
    """The same rows as bare autocommit INSERTs (``execute(sql, row)``)."""

    def __init__(
        self, store: EventStore, execute: Callable[[Any], object], with_position: bool, first: int = 0
    ):
        self.game_id = f"bench-bare-{uuid.uuid4().hex[:12]}"
        store.create_game(self.game_id, "ttr-sf", {}, [], "playing")
        self.rows = rows_for(self.game_id)
        self.execute = execute
        self.position = first if with_position else None

    def __call__(self, n: int) -> float:
        rows = [next(self.rows) for _ in range(n)]
        if self.position is not None:
            rows = [(self.position + i, *row) for i, row in enumerate(rows)]
            self.position += n
        t0 = time.perf_counter()
        for row in rows:
            self.execute(row)
        return time.perf_counter() - t0


def median_time(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def game_of(store: EventStore, n: int) -> str:
    game_id = f"bench-load-{uuid.uuid4().hex[:12]}"
    store.create_game(game_id, "ttr-sf", {}, [NewEvent("route_claimed", PAYLOAD, 2, 1)] * n, "finished")
    return game_id


def load_figures(
    store: EventStore, bare_select: Callable[[str], object], name: str, n: int, repeat: int
) -> Result:
    game_id = f"bench-load-{uuid.uuid4().hex[:12]}"
    store.create_game(game_id, "ttr-sf", {}, [NewEvent("route_claimed", PAYLOAD, 2, 1)] * n, "finished")
    store.load(game_id)
    bare_select(game_id)
    ours, bare = interleave(
        lambda k: median_time(lambda: store.load(game_id), k),
        lambda k: median_time(lambda: bare_select(game_id), k),
        repeat * 10,
        10,
    )
    return Result(f"{name} load ({n} events)", ours / 10, bare / 10, "ms", 1)


def bench_sqlite(appends: int, load_events: int, repeat: int, rounds: int) -> list[Result]:
    from events.sqlite_store import SqliteStore

    folder = Path(tempfile.mkdtemp(prefix="cablecar-bench-"))
    store = SqliteStore(folder / "bench.sqlite3")
    conn = sqlite3.connect(folder / "bench.sqlite3", isolation_level=None)
    for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON"):
        conn.execute(f"PRAGMA {pragma}")
    try:
        insert = f"INSERT INTO events (position, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        appender = Appender(store)
        # negative positions: out of the way of max(position) + 1, so both can interleave
        bare = BareInserter(store, lambda row: conn.execute(insert, row), True, first=-(10**12))
        ours_s, bare_s = interleave(appender, bare, appends, rounds)
        select = f"SELECT position, {COLUMNS} FROM events WHERE game_id = ? ORDER BY seq"
        return [
            Result("sqlite append (1 event)", ours_s, bare_s, "appends/s", appends),
            load_figures(
                store, lambda g: conn.execute(select, (g,)).fetchall(), "sqlite", load_events, repeat
            ),
            load_figures(
                store,
                lambda g: [json.loads(r[5]) for r in conn.execute(select, (g,)).fetchall()],
                "sqlite (bare + json)",
                load_events,
                repeat,
            ),
        ]
    finally:
        conn.close()
        store.close()


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def bench_postgres(admin_url: str, appends: int, load_events: int, repeat: int, rounds: int) -> list[Result]:
    import psycopg

    from events.migrate import migrate
    from events.postgres_store import PostgresStore

    name = f"cc_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"'.encode())
    url = with_database(admin_url, name)
    try:
        migrate(url)
        store = PostgresStore(url, max_size=1)
        conn = psycopg.connect(url, autocommit=True)
        try:
            insert = f"INSERT INTO events ({COLUMNS}) VALUES (%s, %s, %s, %s, %s::json, %s, %s, %s, %s, %s)".encode()
            appender = Appender(store)
            bare = BareInserter(store, lambda row: conn.execute(insert, row), False)
            interleave(appender, bare, 100, 2)  # warm up: pool, prepared statements
            ours_s, bare_s = interleave(appender, bare, appends, rounds)
            select = f"SELECT position, {COLUMNS} FROM events WHERE game_id = %s ORDER BY seq".encode()
            return [
                Result("postgres append (1 event)", ours_s, bare_s, "appends/s", appends),
                load_figures(
                    store, lambda g: conn.execute(select, (g,)).fetchall(), "postgres", load_events, repeat
                ),
            ]
        finally:
            conn.close()
            store.close()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per figure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--load-events", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=20, help="alternating chunks per figure")
    parser.add_argument("--postgres-url", default=os.environ.get("CABLECAR_TEST_DATABASE_URL"))
    args = parser.parse_args(argv)

    results: list[Result] = []
    if args.backend in ("sqlite", "both"):
        results += bench_sqlite(args.appends, args.load_events, args.repeat, args.rounds)
    if args.backend in ("postgres", "both"):
        if args.postgres_url:
            results += bench_postgres(
                args.postgres_url, args.appends, args.load_events, args.repeat, args.rounds
            )
        elif args.backend == "postgres":
            parser.error("--postgres-url or CABLECAR_TEST_DATABASE_URL is needed")
        else:
            print("(postgres skipped: set CABLECAR_TEST_DATABASE_URL or --postgres-url)")
    for result in results:
        print(result.line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
