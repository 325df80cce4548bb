"""Running a pool of client threads for a fixed time, and what came of it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bench.load.clients import GameLedger, Phase
from bench.load.stats import Latency, Recorder, latencies, merge


class Client(Protocol):
    """Anything with a ``run()`` loop and a ``recorder``."""

    recorder: Recorder

    def run(self) -> None:
        """Work until the phase stops."""


@dataclass(frozen=True)
class PhaseResult:
    """One load phase: its clients' merged observations and timing."""

    name: str
    clients: int
    seconds: float
    started: float
    stopped: float
    recorder: Recorder
    ledgers: tuple[GameLedger, ...]

    @property
    def accepted(self) -> int:
        """Actions (or baseline inserts) newly applied during the timed window."""
        return sum(1 for t in self.recorder.accepted if self.started <= t <= self.stopped)

    @property
    def throughput(self) -> float:
        """Accepted per second over the timed window."""
        return self.accepted / self.seconds if self.seconds > 0 else 0.0

    @property
    def request_rate(self) -> float:
        """HTTP requests per second (the whole run including the drain)."""
        return self.recorder.requests / self.seconds if self.seconds > 0 else 0.0

    @property
    def latencies(self) -> tuple[Latency, ...]:
        """Latency summaries per endpoint."""
        return latencies(self.recorder)

    def rate_between(self, start: float, end: float) -> float:
        """Accepted per second between two monotonic times."""
        if end <= start:
            return 0.0
        return sum(1 for t in self.recorder.accepted if start <= t < end) / (end - start)

    def first_accepted_after(self, moment: float) -> float | None:
        """Seconds from ``moment`` to the first accepted action after it."""
        for t in self.recorder.accepted:
            if t >= moment:
                return t - moment
        return None


def run_phase(
    name: str,
    base_url: str,
    make_client: Callable[[Phase, int], Client],
    clients: int,
    seconds: float,
    during: Callable[[Phase], None] | None = None,
    drain_seconds: float = 20.0,
) -> PhaseResult:
    """Run ``clients`` threads for ``seconds`` (``during`` runs in this thread
    meanwhile and may take longer: the phase lasts until it returns), then let
    them finish what they were doing for up to ``drain_seconds``."""
    phase = Phase(base_url)
    pool = [make_client(phase, i) for i in range(clients)]
    threads = [threading.Thread(target=c.run, name=f"{name}-{i}", daemon=True) for i, c in enumerate(pool)]
    started = time.monotonic()
    for t in threads:
        t.start()
    if during is not None:
        during(phase)
    remaining = started + seconds - time.monotonic()
    if remaining > 0:
        time.sleep(remaining)
    stopped = time.monotonic()
    phase.stop.set()
    give_up_at = stopped + drain_seconds
    for t in threads:
        t.join(timeout=max(0.0, give_up_at - time.monotonic()))
    phase.give_up.set()
    for t in threads:
        t.join(timeout=10)
    recorder = merge(c.recorder for c in pool)
    ledgers: list[GameLedger] = []
    for c in pool:
        ledgers.extend(getattr(c, "ledgers", ()))
    return PhaseResult(name, clients, stopped - started, started, stopped, recorder, tuple(ledgers))


def ledgers_of(results: Sequence[PhaseResult]) -> list[GameLedger]:
    """Every scripted game of several phases."""
    return [ledger for r in results for ledger in r.ledgers]
