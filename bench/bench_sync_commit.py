"""What synchronous replication costs an append (docs/scaling.md, "Sizing").

Clients (processes) append to games of their own through the event store
of ``events.factory.postgres_stores`` for a few seconds per variant, on a
scratch database of a PostgreSQL server with ``fsync`` and
``synchronous_commit`` on, that has a streaming hot standby (made with
``pg_basebackup -R`` on the same machine, as the contract tests make theirs):

* **alone**: ``synchronous_standby_names`` empty: a commit waits for the
  primary's own WAL flush;
* **synchronous**: ``synchronous_standby_names = '*'``: a commit also waits
  for the standby to have flushed the WAL (what Patroni's synchronous mode
  does).

Variants alternate within each round so background noise hits both.  The
standby shares this machine's disk and cores: a standby on a host of its own
adds a network round trip instead, and takes no CPU from the primary.  Use a
server of your own (``CABLECAR_TEST_SERVICES_DIR=/tmp/x scripts/test-services.sh up``):
its settings are changed for the run and reset afterwards.

    eval "$(CABLECAR_TEST_SERVICES_DIR=/tmp/x scripts/test-services.sh up)"
    python bench/bench_sync_commit.py --clients 1,16 --seconds 5 --rounds 2
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_append_contention import _sql, durable, measure, scratch_database  # noqa: E402
from tests.contract.standby import hot_standby, standby_tools  # noqa: E402

VARIANTS = {"alone": "''", "synchronous": "'*'"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="1,16", help="comma-separated client counts")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--events", type=int, default=2, help="events per append (a ttr-sf action averages ~2.2)")
    args = parser.parse_args()
    base_url = os.environ.get("CABLECAR_TEST_DATABASE_URL") or os.environ["DATABASE_URL"]
    tools = standby_tools(base_url)
    if isinstance(tools, str):
        raise SystemExit(f"bench_sync_commit: no standby can be made here: {tools}")
    counts = [int(c) for c in args.clients.split(",")]
    results: dict[tuple[str, int], tuple[list[float], list[float]]] = {}
    with durable(base_url, True), scratch_database(base_url) as url, hot_standby(url, *tools):
        try:
            for r in range(args.rounds):
                for n in counts:
                    for variant, names in VARIANTS.items():
                        _sql(base_url, f"ALTER SYSTEM SET synchronous_standby_names = {names}")
                        _sql(base_url, "SELECT pg_reload_conf()")
                        time.sleep(0.5)
                        rate, latencies = measure(url, n, args.seconds, args.events)
                        rates, every = results.setdefault((variant, n), ([], []))
                        rates.append(rate)
                        every += latencies
                        print(f"round {r + 1} {n:3d} clients {variant:12s} {rate:8.0f} appends/s", flush=True)
        finally:
            _sql(base_url, "ALTER SYSTEM RESET synchronous_standby_names")
            _sql(base_url, "SELECT pg_reload_conf()")
    print(f"\nfsync=on, synchronous_commit=on; a standby on the same machine; {args.events} events per append; "
          f"{args.rounds} x {args.seconds:g} s per cell, variants alternating")
    print("| clients | variant | appends/s | x alone | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|")
    for n in counts:
        base = sum(results[("alone", n)][0]) / args.rounds
        for variant in VARIANTS:
            rates, latencies = results[(variant, n)]
            mean = sum(rates) / len(rates)
            latencies.sort()
            p50 = latencies[len(latencies) // 2] * 1000 if latencies else float("nan")
            p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000 if latencies else float("nan")
            print(f"| {n} | {variant} | {mean:.0f} | {mean / base:.2f} | {p50:.1f} | {p99:.1f} |")


if __name__ == "__main__":
    main()
