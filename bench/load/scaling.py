"""The scaling section: appends/s at 1, 4, 16, 64 concurrent clients on
games of their own, the shipped append (no lock shared between games)
against the same append with the old transaction-long global lock, straight
through the event store (``bench/bench_append_contention.py``), on the
harness' PostgreSQL (so in ``--durable`` mode with fsync and synchronous
commits on)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.bench_append_contention import scaling


@dataclass(frozen=True)
class ScalingRow:
    """One (client count, variant) cell: appends/s per round and latency percentiles (ms)."""

    clients: int
    variant: str
    rates: tuple[float, ...]
    p50: float
    p99: float

    @property
    def rate(self) -> float:
        """Mean appends/s over the rounds."""
        return sum(self.rates) / len(self.rates)


def _pct(values: list[float], q: float) -> float:
    values.sort()
    return values[int(q * (len(values) - 1))] * 1000 if values else float("nan")


def run_scaling(
    base_url: str, clients: Sequence[int], seconds: float, rounds: int, log: Callable[[str], None]
) -> tuple[ScalingRow, ...]:
    """Every client count, the two variants alternating within each round."""
    found = scaling(base_url, clients, seconds, rounds, events=2, variants=("shipped", "old lock"), log=log)
    return tuple(
        ScalingRow(n, variant, tuple(rates), _pct(lat, 0.5), _pct(lat, 0.99))
        for (variant, n), (rates, lat) in sorted(found.items(), key=lambda kv: (kv[0][1], kv[0][0] != "shipped"))
    )


def render_scaling(rows: Sequence[ScalingRow], durable: bool, seconds: float, rounds: int) -> list[str]:
    """The report's scaling table."""
    mode = "durable: fsync=on, synchronous_commit=on" if durable else "the server's standard settings"
    out = [
        "## Scaling: appends/s by concurrent clients (no lock vs the old global lock)",
        "",
        f"`bench/load/scaling.py` ({mode}): N processes, each appending 2-event batches with an idempotency key, "
        f"a status and a metadata guard to a game of its own through the event store (`stores.events`), "
        f"{rounds} x {seconds:g} s per cell, the variants alternating. *shipped*: migration 0008 (positions "
        "`xid << 16 | index`, readers stop at the snapshot's xmin, NOTIFY only for watched games); *old lock*: "
        "the same function with the transaction-long `pg_advisory_xact_lock` the store took before 0008.",
        "",
        "| clients | shipped appends/s | old lock appends/s | shipped / old lock | p99 shipped / old lock (ms) |",
        "|---|---|---|---|---|",
    ]
    by_clients: dict[int, dict[str, ScalingRow]] = {}
    for row in rows:
        by_clients.setdefault(row.clients, {})[row.variant] = row
    for n, cells in sorted(by_clients.items()):
        new, old = cells.get("shipped"), cells.get("old lock")
        if new is None or old is None:
            continue
        ratio = new.rate / old.rate if old.rate else float("nan")
        out.append(f"| {n} | {new.rate:,.0f} | {old.rate:,.0f} | x{ratio:.2f} | {new.p99:.1f} / {old.p99:.1f} |")
    return [*out, ""]
