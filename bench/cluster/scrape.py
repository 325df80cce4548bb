"""Every app host's ``/metrics`` scraped once a second through the run, as
Prometheus would, and, per fault, which signals moved and when: the alert
an operator's rules would have raised (docs/scaling.md lists them)."""

from __future__ import annotations

import threading
import time
import urllib.request
from dataclasses import dataclass, field

#: (what an operator sees, metric, label filter, kind): counters are read as increases, gauges as maxima
SIGNALS: tuple[tuple[str, str, str, str], ...] = (
    ("5xx answers", "cablecar_http_requests_total", 'status="5', "counter"),
    ("503 unavailable", "cablecar_problems_total", 'code="unavailable"', "counter"),
    ("database unavailable", "cablecar_db_failures_total", 'kind="unavailable"', "counter"),
    ("database calls cut (no answer)", "cablecar_db_failures_total", 'kind="cut"', "counter"),
    ("writes of unknown outcome", "cablecar_db_failures_total", 'kind="unknown"', "counter"),
    ("writes refused read-only", "cablecar_db_failures_total", 'kind="read_only"', "counter"),
    ("standby reads fell back to the primary", "cablecar_replica_reads_total", 'outcome="fell_back"', "counter"),
    ("standby lag (bytes, max)", "cablecar_replica_lag_bytes", "", "gauge"),
    ("cache errors", "cablecar_cache_lookups_total", 'outcome="errors"', "counter"),
    ("stale_version conflicts", "cablecar_problems_total", 'code="stale_version"', "counter"),
)
#: the standby's page reads (one per read, whatever it costs in statements)
SERVED = ("cablecar_replica_reads_total", 'outcome="served"')


def parse(text: str) -> dict[str, float]:
    samples: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            try:
                samples[name] = float(value)
            except ValueError:
                continue
    return samples


def value(samples: dict[str, float], metric: str, labels: str) -> float:
    """The sum of ``metric``'s samples whose label text contains ``labels``."""
    total = 0.0
    for key, v in samples.items():
        name, _, rest = key.partition("{")
        if name == metric and labels in rest:
            total += v
    return total


@dataclass
class Scraper:
    """Scrapes ``targets`` (host name -> ``host:port``) every ``period`` seconds until stopped."""

    targets: dict[str, str]
    period: float = 1.0
    #: (time, host, samples or None when the scrape failed)
    series: list[tuple[float, str, dict[str, float] | None]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self.stop.is_set():
            for host, address in self.targets.items():
                try:
                    with urllib.request.urlopen(f"http://{address}/metrics", timeout=0.8) as resp:
                        got: dict[str, float] | None = parse(resp.read().decode())
                except OSError:
                    got = None
                self.series.append((time.monotonic(), host, got))
            self.stop.wait(self.period)

    def total(self, metric: str, labels: str, at: float) -> float:
        """The sum over hosts of the last sample each had at or before ``at``."""
        last: dict[str, float] = {}
        for t, host, samples in self.series:
            if t <= at and samples is not None:
                last[host] = value(samples, metric, labels)
        return sum(last.values())

    def moved(self, start: float, end: float) -> list[tuple[str, float, str]]:
        """The signals that moved in ``[start, end]``: (signal, seconds after ``start`` it first moved, how much)."""
        found: list[tuple[str, float, str]] = []
        base: dict[tuple[str, str], float] = {}
        for t, host, samples in self.series:
            if t < start and samples is not None:
                for name, metric, labels, _ in SIGNALS:
                    base[(host, name)] = value(samples, metric, labels)
        down = [t for t, _, samples in self.series if start <= t <= end and samples is None]
        if down:
            hosts = sorted({h for t, h, s in self.series if start <= t <= end and s is None})
            found.append(("scrape failed (host or its workers down)", down[0] - start, ", ".join(hosts)))
        for name, metric, labels, kind in SIGNALS:
            first: float | None = None
            peak = 0.0
            for t, host, samples in self.series:
                if not start <= t <= end or samples is None:
                    continue
                now = value(samples, metric, labels)
                change = now - base.get((host, name), 0.0) if kind == "counter" else now
                if change > 0 and (kind == "counter" or now > 65536):  # a gauge: the lag past 64 KiB
                    first = t if first is None else first
                    peak = max(peak, change)
            if first is not None:
                found.append((name, first - start, f"{peak:g}" + (" (max per host)" if kind == "counter" else "")))
        return found
