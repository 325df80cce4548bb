"""Server time of one append inside PostgreSQL, per append function.

Appends (one event, and two events) with an idempotency key, a status and a
metadata guard, one client, on a scratch database, with
``track_functions = 'all'``; prints ``pg_stat_user_functions``: calls, mean
total and self time per call (ms) for each function the appends ran.  Run
it from two checkouts to compare their append functions (the script only
uses ``PostgresStore``'s public interface, so it runs on older commits):

    PYTHONPATH=. python bench/bench_append_sql.py --appends 2000
    (cd /tmp/old-checkout && PYTHONPATH=. python /path/to/bench/bench_append_sql.py --appends 2000)
"""

from __future__ import annotations

import argparse
import os
import secrets

import psycopg

from events.postgres import PostgresStore
from events.store import MetadataGuard, NewEvent

GUARD = MetadataGuard(("seat_token_hashes", 0), "a" * 64)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=2000, help="appends of each size")
    args = parser.parse_args()
    base = os.environ["CABLECAR_TEST_DATABASE_URL"]
    name = "bench_sql_" + secrets.token_hex(4)
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}".encode())
        admin.execute(f"ALTER DATABASE {name} SET track_functions = 'all'".encode())
    url = base.rsplit("/", 1)[0] + "/" + name
    try:
        store = PostgresStore(url, max_size=1)
        for size in (1, 2):
            game = f"g{size}"
            store.create_game(game, "bench", {"seat_token_hashes": ["a" * 64]}, [NewEvent("s", {"n": 0})], "playing")
            version = 1
            for i in range(args.appends):
                batch = [NewEvent("a", {"n": version + j, "x": "y" * 60}, 1, 0) for j in range(size)]
                store.append(game, version, batch, idempotency_key=f"k{i}", request_hash="h", status="playing",
                             guard=GUARD)
                version += size
        store.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SELECT pg_stat_force_next_flush()")
            rows = conn.execute(
                "SELECT funcname, calls, total_time / calls, self_time / calls FROM pg_stat_user_functions"
                " WHERE calls > 0 ORDER BY funcname"
            ).fetchall()
        print("| function | calls | mean total ms | mean self ms |")
        print("|---|---|---|---|")
        for fname, calls, total, self_time in rows:
            print(f"| {fname} | {calls} | {total:.3f} | {self_time:.3f} |")
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)".encode())


if __name__ == "__main__":
    main()
