"""What the PostgreSQL append costs under contention, and which part of it.

Clients (processes) append to games of their own (no two touch one game)
through the event store of ``events.factory.postgres_stores`` as fast as
they can, for a few seconds per variant, on a scratch database:

* **shipped**: the append functions of the migrations (no lock shared
  between games: positions are ``xid << 16 | index`` and readers stop at the
  snapshot's xmin; see ``events/postgres/database.py``);
* **no NOTIFY**: the same with the trigger that announces new versions (SSE
  wake-ups) off: PostgreSQL serialises the commits of notifying transactions
  on one lock, so this prices what is left of a global commit order;
* **old lock**: the shipped functions with the transaction-long global
  advisory lock the store took before migration 0008
  (``pg_advisory_xact_lock`` just before the inserts, held until commit):
  what the old scheme cost.

The last two are not correct configurations of the service.  Variants
alternate within each round so background noise hits each one; appends/s
are printed per client count, with ratios to "shipped".

``--durable`` turns ``fsync`` and ``synchronous_commit`` on for the run
(``ALTER SYSTEM`` + reload, reset afterwards): use it only on a server of
your own (``CABLECAR_TEST_SERVICES_DIR=/tmp/x scripts/test-services.sh up``).

    eval "$(scripts/test-services.sh up)"
    python bench/bench_append_contention.py --clients 1,4,16,64 --seconds 5 --rounds 2 [--durable]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import secrets
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from queue import Queue

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from events.factory import postgres_stores  # noqa: E402
from events.integrity.signing import Signer  # noqa: E402
from events.records import AppendOptions, MetadataGuard, NewEvent  # noqa: E402

GUARD = MetadataGuard(("seat_token_hashes", 0), "a" * 64)
#: The advisory lock key the store used before migration 0008.
OLD_POSITION_LOCK_KEY = 0x0CAB1E_CA4_0002
VARIANTS = ("shipped", "no NOTIFY", "old lock")
_DRAW = "r_position := (pg_current_xact_id()"
#: the NOTIFY of a watched game, in the append function since migration 0009
_WATCHED = "IF EXISTS (SELECT 1 FROM game_watches w WHERE w.game_id = p_game_id) THEN"


def _appender(url: str, seconds: float, events: int, start: float, out: Queue[tuple[int, list[float]]]) -> None:
    stores = postgres_stores(url, max_size=1, signer=Signer.generate())
    store = stores.events
    game_id = secrets.token_hex(8)
    store.create_game(game_id, "bench", {"seat_token_hashes": ["a" * 64]}, [NewEvent("s", {"n": 0}, 1, None)], "playing")
    version, done, latencies = 1, 0, []
    while time.time() < start:  # every client starts at once
        time.sleep(0.005)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        batch = [NewEvent("a", {"n": version + i, "x": "y" * 60}, 1, 0) for i in range(events)]
        t0 = time.perf_counter()
        store.append(game_id, version, batch, AppendOptions(idempotency_key=f"k{version}", request_hash="h",
                                                            status="playing", guard=GUARD))
        latencies.append(time.perf_counter() - t0)
        version += events
        done += 1
    out.put((done, latencies))
    stores.close()


def measure(url: str, clients: int, seconds: float, events: int) -> tuple[float, list[float]]:
    """Appends/s of ``clients`` processes on games of their own, and every append's latency (s)."""
    out: Queue[tuple[int, list[float]]] = mp.Queue()  # type: ignore[assignment]
    start = time.time() + 1.0 + clients * 0.05
    workers = [mp.Process(target=_appender, args=(url, seconds, events, start, out)) for _ in range(clients)]
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    return sum(done for done, _ in results) / seconds, [x for _, lat in results for x in lat]


def _sql(url: str, statement: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement.encode())


def installers(url: str) -> dict[str, Callable[[], None]]:
    """For each variant, a function that installs it in the database ``url``."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT pg_get_functiondef('cablecar_append_batch'::regproc)").fetchone()
    assert row is not None
    shipped = str(row[0])
    assert _DRAW in shipped, "the append function no longer draws positions this way"
    assert _WATCHED in shipped, "the append function no longer sends its NOTIFY this way"
    locked = shipped.replace(_DRAW, f"PERFORM pg_advisory_xact_lock({OLD_POSITION_LOCK_KEY});\n    {_DRAW}")
    silent = shipped.replace(_WATCHED, "IF false THEN")

    def install(function: str) -> Callable[[], None]:
        return lambda: _sql(url, function)

    return {"shipped": install(shipped), "no NOTIFY": install(silent), "old lock": install(locked)}


def set_durable(admin_url: str, on: bool) -> None:
    """Turn fsync and synchronous_commit on (or back to the server's configuration)."""
    if on:
        statements = ["ALTER SYSTEM SET fsync = on", "ALTER SYSTEM SET synchronous_commit = on"]
    else:
        statements = ["ALTER SYSTEM RESET fsync", "ALTER SYSTEM RESET synchronous_commit"]
    for statement in [*statements, "SELECT pg_reload_conf()"]:
        _sql(admin_url, statement)
    time.sleep(0.5)  # the reload reaches every backend asynchronously


@contextmanager
def durable(admin_url: str, on: bool) -> Iterator[None]:
    """fsync and synchronous_commit on for the block (if ``on``), as configured after."""
    if not on:
        yield
        return
    set_durable(admin_url, True)
    try:
        yield
    finally:
        set_durable(admin_url, False)


@contextmanager
def scratch_database(base_url: str) -> Iterator[str]:
    """A migrated database of its own, dropped afterwards."""
    name = "bench_contention_" + secrets.token_hex(4)
    _sql(base_url, f"CREATE DATABASE {name}")
    url = base_url.rsplit("/", 1)[0] + "/" + name
    try:
        from events.factory import migrate

        migrate(url)
        yield url
    finally:
        _sql(base_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def scaling(
    base_url: str, clients: Sequence[int], seconds: float, rounds: int, events: int,
    variants: Sequence[str] = VARIANTS, log: Callable[[str], None] = print,
) -> dict[tuple[str, int], tuple[list[float], list[float]]]:
    """``{(variant, clients): (appends/s per round, latencies)}``, variants alternating."""
    results: dict[tuple[str, int], tuple[list[float], list[float]]] = {}
    with scratch_database(base_url) as url:
        install = installers(url)
        for r in range(rounds):
            for n in clients:
                for variant in variants:
                    install[variant]()
                    rate, latencies = measure(url, n, seconds, events)
                    rates, all_latencies = results.setdefault((variant, n), ([], []))
                    rates.append(rate)
                    all_latencies += latencies
                    log(f"round {r + 1} {n:3d} clients {variant:10s} {rate:8.0f} appends/s")
        install["shipped"]()
    return results


def main() -> None:
    """Run every variant at every client count and print appends/s and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="16", help="comma-separated client counts, e.g. 1,4,16,64")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--events", type=int, default=2, help="events per append (a ttr-sf action averages ~2.2)")
    parser.add_argument("--durable", action="store_true", help="fsync=on, synchronous_commit=on for the run")
    args = parser.parse_args()
    base_url = os.environ.get("CABLECAR_TEST_DATABASE_URL") or os.environ["DATABASE_URL"]
    counts = [int(c) for c in args.clients.split(",")]
    with durable(base_url, args.durable):
        results = scaling(base_url, counts, args.seconds, args.rounds, args.events)
    mode = "durable (fsync=on, synchronous_commit=on)" if args.durable else "server as configured"
    print(f"\n{mode}; {args.events} events per append; {args.rounds} x {args.seconds:g} s per cell")
    for n in counts:
        base = sum(results[("shipped", n)][0]) / args.rounds
        for variant in VARIANTS:
            rates, latencies = results[(variant, n)]
            mean = sum(rates) / len(rates)
            latencies.sort()
            p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000 if latencies else float("nan")
            print(f"{n:3d} clients {variant:10s} {mean:8.0f} appends/s  x{mean / base:.2f}  p99 {p99:.1f} ms")


if __name__ == "__main__":
    main()
