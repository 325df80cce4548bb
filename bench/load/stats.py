"""What clients observe: latencies per endpoint, errors by kind, accepted actions.

Every client thread fills its own :class:`Recorder` (no locks on the hot
path); :func:`merge` adds them up once the threads are done.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bench.load.http import Answer

#: Problem codes that are clean refusals under load or faults.
CLEAN = {
    (503, "unavailable"),
    (409, "stale_version"),
    (409, "not_your_turn"),
    (409, "game_finished"),
}


@dataclass
class Recorder:
    """Observations of one client thread."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    #: every non-2xx answer or transport failure, by kind ("503 unavailable")
    errors: Counter[str] = field(default_factory=Counter)
    #: answers that were not clean refusals (5xx other than 503, non-problem bodies, ...)
    unclean: list[str] = field(default_factory=list)
    #: monotonic times of accepted (newly applied) actions
    accepted: list[float] = field(default_factory=list)
    requests: int = 0
    resends: int = 0
    replayed: int = 0
    conflicts: int = 0
    #: 409 stale_version answers to a retry whose earlier attempt (same key) was in flight
    stale_in_flight: int = 0
    games_created: int = 0
    games_finished: int = 0

    def timed(self, label: str, answer: Answer) -> Answer:
        """Record ``answer``'s latency under ``label``; return it."""
        self.requests += 1
        self.latencies.setdefault(label, []).append(answer.seconds)
        return answer

    def refused(self, label: str, answer: Answer) -> None:
        """Record a non-2xx answer and whether it was a clean refusal."""
        kind = f"{answer.status} {answer.code or 'no-problem-body'}"
        self.errors[kind] += 1
        if (answer.status, answer.code) not in CLEAN or not answer.is_problem:
            self.unclean.append(f"{label}: {kind} ({answer.content_type})")

    def transport(self, label: str, error: BaseException) -> None:
        """Record a request that got no HTTP answer."""
        self.requests += 1
        self.errors[f"no answer ({type(error).__name__})"] += 1


def merge(recorders: Iterable[Recorder]) -> Recorder:
    """One recorder holding everything of ``recorders``."""
    total = Recorder()
    for r in recorders:
        for label, values in r.latencies.items():
            total.latencies.setdefault(label, []).extend(values)
        total.errors.update(r.errors)
        total.unclean.extend(r.unclean)
        total.accepted.extend(r.accepted)
        total.requests += r.requests
        total.resends += r.resends
        total.replayed += r.replayed
        total.conflicts += r.conflicts
        total.stale_in_flight += r.stale_in_flight
        total.games_created += r.games_created
        total.games_finished += r.games_finished
    total.accepted.sort()
    return total


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of sorted values, nearest-rank."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass(frozen=True)
class Latency:
    """Latency summary of one endpoint, in milliseconds."""

    label: str
    count: int
    p50: float
    p95: float
    p99: float
    max: float

    @classmethod
    def of(cls, label: str, seconds: Sequence[float]) -> Latency:
        """Summarise raw latencies (seconds)."""
        values = sorted(seconds)
        ms = [percentile(values, q) * 1000 for q in (0.5, 0.95, 0.99)]
        return cls(label, len(values), ms[0], ms[1], ms[2], (values[-1] * 1000) if values else math.nan)


def latencies(recorder: Recorder) -> tuple[Latency, ...]:
    """Every endpoint's latency summary, in a stable order."""
    return tuple(Latency.of(label, recorder.latencies[label]) for label in sorted(recorder.latencies))
