"""Event-store overhead: our layer against bare driver calls on the same table.

For each backend it measures

* single-event appends per second through ``EventStore.append`` next to
  - bare autocommit ``INSERT``s of the same rows into the same ``events``
    table with the same driver (no version check, no chain, no game row),
  - a hand-written correct append with the same driver: one transaction
    that locks the game row, inserts the event and updates the game row
    (what the layer must do at least; shown for context);
* loading a 300-event game through ``EventStore.load`` (envelopes with
  decoded payloads) next to a bare ``SELECT ... ORDER BY seq`` + ``fetchall``
  (for SQLite also + ``json.loads`` of each payload, which the PostgreSQL
  driver does by itself);

and prints the ratios (ours / bare: lower is better).  The figures being
compared are measured in alternating chunks so that load from other
processes on the machine hits both sides alike.

    python bench/bench_store.py                       # sqlite, plus postgres if CABLECAR_TEST_DATABASE_URL is set
    python bench/bench_store.py --backend postgres --appends 4000

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.integrity.envelope import GENESIS_HASH
from events.integrity.sealing import seal
from events.integrity.signing import Signer  # noqa: E402
from events.recorders.event_log import EventStore
from events.records import NewEvent  # noqa: E402

PAYLOAD = {
    "seat": 1,
    "route": "golden-gate-bridge--fort-mason",
    "cards": {"red": 3, "ferry": 1, "locomotive": 1},
    "souvenir": "bridge",
    "points": 10,
}
COLUMNS = "game_id, seq, type, schema_version, payload, recorded_at, seat, idempotency_key, prev_hash, hash"

#: A timed action: do ``n`` operations, return the seconds they took.
Timed = Callable[[int], float]


@dataclass(frozen=True)
class Result:
    """One comparison: seconds for the same work, ours and the baseline's."""

    name: str
    ours: float
    bare: float
    per_second: int = 0  # operations measured, for throughput lines

    def line(self) -> str:
        """The printed line: both figures and the ratio."""
        if self.per_second:
            ours = f"{self.per_second / self.ours:9.0f}/s"
            bare = f"{self.per_second / self.bare:9.0f}/s"
        else:
            ours, bare = f"{self.ours * 1000:8.2f} ms", f"{self.bare * 1000:8.2f} ms"
        return f"{self.name:<52} ours {ours}   baseline {bare}   ratio {self.ours / self.bare:4.2f}x"


def interleave(actions: Sequence[Timed], n: int, rounds: int) -> list[float]:
    """Total seconds of ``n`` operations by each action, measured in
    ``rounds`` alternating chunks."""
    chunk = max(1, n // rounds)
    totals = [0.0] * len(actions)
    for _ in range(rounds):
        for i, action in enumerate(actions):
            totals[i] += action(chunk)
    return totals


def rows_for(game_id: str) -> Iterator[tuple[Any, ...]]:
    """Sealed rows (what our layer would write) for seq 1, 2, ..."""
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


def new_game(store: EventStore, prefix: str) -> str:
    game_id = f"{prefix}-{uuid.uuid4().hex[:12]}"
    store.create_game(game_id, "ttr-sf", {}, [], "playing")
    return game_id


def appender(store: EventStore) -> Timed:
    """Single-event appends to one game through the store."""
    game_id = new_game(store, "bench")
    event = NewEvent("route_claimed", PAYLOAD, 2, 1)
    version = 0

    def run(n: int) -> float:
        nonlocal version
        t0 = time.perf_counter()
        for _ in range(n):
            store.append(game_id, version, [event])
            version += 1
        return time.perf_counter() - t0

    return run


def row_writer(game_id: str, write: Callable[[tuple[Any, ...]], object]) -> Timed:
    """Times ``write(row)`` over fresh rows of ``game_id`` (built untimed)."""
    rows = rows_for(game_id)

    def run(n: int) -> float:
        batch = [next(rows) for _ in range(n)]
        t0 = time.perf_counter()
        for row in batch:
            write(row)
        return time.perf_counter() - t0

    return run


def median_time(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def load_results(
    store: EventStore, baselines: dict[str, Callable[[str], object]], n: int, repeat: int
) -> list[Result]:
    game_id = f"bench-load-{uuid.uuid4().hex[:12]}"
    store.create_game(game_id, "ttr-sf", {}, [NewEvent("route_claimed", PAYLOAD, 2, 1)] * n, "finished")
    names = list(baselines)
    actions: list[Timed] = [lambda k: median_time(lambda: store.load(game_id), k)]
    actions += [lambda k, f=baselines[name]: median_time(lambda: f(game_id), k) for name in names]  # type: ignore[misc]
    for action in actions:
        action(3)  # warm up
    rounds = 10
    totals = interleave(actions, repeat * rounds, rounds)
    return [
        Result(f"load {n} events vs {name}", totals[0] / rounds, totals[i + 1] / rounds)
        for i, name in enumerate(names)
    ]


def bench_sqlite(appends: int, load_events: int, repeat: int, rounds: int) -> list[Result]:
    from events.factory import sqlite_stores

    folder = Path(tempfile.mkdtemp(prefix="cablecar-bench-"))
    stores = sqlite_stores(folder / "bench.sqlite3", signer=Signer.generate())
    store = stores.events
    conn = sqlite3.connect(folder / "bench.sqlite3", isolation_level=None)
    for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON"):
        conn.execute(f"PRAGMA {pragma}")
    try:
        # Bare rows get negative positions, out of the way of the store's max(position) + 1.
        next_position = -(10**12)

        def bare_insert(row: tuple[Any, ...]) -> None:
            nonlocal next_position
            next_position += 1
            conn.execute(
                f"INSERT INTO events (position, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (next_position, *row),
            )

        txn_game = new_game(store, "bench-txn")

        def transaction(row: tuple[Any, ...]) -> None:
            nonlocal next_position
            next_position += 1
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("SELECT version, last_hash FROM games WHERE game_id = ?", (txn_game,)).fetchone()
            conn.execute(
                f"INSERT INTO events (position, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (next_position, *row),
            )
            conn.execute(
                "UPDATE games SET version = ?, last_hash = ? WHERE game_id = ?", (row[1], row[9], txn_game)
            )
            conn.execute("COMMIT")

        ours, bare, txn = interleave(
            [
                appender(store),
                row_writer(new_game(store, "bench-bare"), bare_insert),
                row_writer(txn_game, transaction),
            ],
            appends,
            rounds,
        )
        select = f"SELECT position, {COLUMNS} FROM events WHERE game_id = ? ORDER BY seq"
        return [
            Result("sqlite append 1 event vs bare INSERT", ours, bare, appends),
            Result("sqlite append 1 event vs hand-written transaction", ours, txn, appends),
            *(
                Result(f"sqlite {r.name}", r.ours, r.bare)
                for r in load_results(
                    store,
                    {
                        "bare SELECT": lambda g: conn.execute(select, (g,)).fetchall(),
                        "bare SELECT + json.loads": lambda g: [
                            json.loads(r[5]) for r in conn.execute(select, (g,)).fetchall()
                        ],
                    },
                    load_events,
                    repeat,
                )
            ),
        ]
    finally:
        conn.close()
        stores.close()


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def bench_postgres(admin_url: str, appends: int, load_events: int, repeat: int, rounds: int) -> list[Result]:
    import psycopg

    from events.factory import migrate, postgres_stores

    name = f"cc_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"'.encode())
    url = with_database(admin_url, name)
    try:
        migrate(url)
        stores = postgres_stores(url, max_size=1, signer=Signer.generate())
        store = stores.events
        conn = psycopg.connect(url, autocommit=True)
        try:
            insert = f"INSERT INTO events ({COLUMNS}) VALUES (%s, %s, %s, %s, %s::json, %s, %s, %s, %s, %s)".encode()
            txn_game = new_game(store, "bench-txn")

            def transaction(row: tuple[Any, ...]) -> None:
                with conn.transaction():
                    conn.execute(
                        b"SELECT version, last_hash FROM games WHERE game_id = %s FOR UPDATE", (txn_game,)
                    ).fetchone()
                    conn.execute(insert, row)
                    conn.execute(
                        b"UPDATE games SET version = %s, last_hash = %s WHERE game_id = %s",
                        (row[1], row[9], txn_game),
                    )

            actions = [
                appender(store),
                row_writer(new_game(store, "bench-bare"), lambda row: conn.execute(insert, row)),
                row_writer(txn_game, transaction),
            ]
            interleave(actions, 150, 3)  # warm up: pool, prepared statements
            ours, bare, txn = interleave(actions, appends, rounds)
            select = f"SELECT position, {COLUMNS} FROM events WHERE game_id = %s ORDER BY seq".encode()
            return [
                Result("postgres append 1 event vs bare INSERT", ours, bare, appends),
                Result("postgres append 1 event vs hand-written transaction", ours, txn, appends),
                *(
                    Result(f"postgres {r.name}", r.ours, r.bare)
                    for r in load_results(
                        store,
                        {
                            "bare SELECT (driver decodes json)": lambda g: conn.execute(
                                select, (g,)
                            ).fetchall()
                        },
                        load_events,
                        repeat,
                    )
                ),
            ]
        finally:
            conn.close()
            stores.close()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per comparison."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--load-events", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=20, help="alternating chunks per comparison")
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
