"""``bench/results/CLUSTER.md``: what the cluster run did and found."""

from __future__ import annotations

import platform
import subprocess
from collections import Counter
from dataclasses import dataclass, field

from bench.cluster.clients import Outcome, Writer
from bench.cluster.hosts import ROOT
from bench.cluster.verify import Verdict


@dataclass
class Fault:
    name: str
    how: str
    at: float
    note: str = ""


@dataclass
class Run:
    app_hosts: int
    writers: int
    setup_seconds: float
    load_seconds: float
    replica_reads: int
    writers_list: list[Writer]
    faults: list[Fault]
    verdict: Verdict
    t0: float
    lb_errors: list[str] = field(default_factory=list)
    total_seconds: float = 0.0
    extra: dict[str, str] = field(default_factory=dict)


def _visible(o: Outcome) -> bool:
    """An answer a client sees as a failure of the service (not a rules refusal)."""
    return o.status == 0 or o.status >= 500


def _status(o: Outcome) -> str:
    return "no answer (connection failed)" if o.status == 0 else f"{o.status} {o.code}".strip()


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.0f}"


def _latency_rows(outcomes: list[Outcome], faults: list[Fault]) -> list[str]:
    """p50 / p99 per request kind: the whole run, and while the standby was paused."""
    paused = next((f for f in faults if f.name == "standby paused"), None)
    after = next((f.at for f in faults if paused is not None and f.at > paused.at), float("inf"))
    rows = []
    for label in sorted({o.label for o in outcomes}):
        mine = [o for o in outcomes if o.label == label and 200 <= o.status < 300]
        lag = [o.seconds for o in mine if paused is not None and paused.at <= o.at < after]
        every = [o.seconds for o in mine]
        rows.append(f"| {label} | {len(every)} | {_ms(every, 0.5)} / {_ms(every, 0.99)} | "
                    f"{_ms(lag, 0.5)} / {_ms(lag, 0.99)} |")
    return rows


def render(r: Run, command: str) -> str:
    outcomes = sorted((o for w in r.writers_list for o in w.outcomes), key=lambda o: o.at)
    v = r.verdict
    errors = [o for o in outcomes if _visible(o)]
    refusals = Counter(_status(o) for o in outcomes if 400 <= o.status < 500)
    by_status = Counter(_status(o) for o in errors)
    acked = sum(len(p.acked) for w in r.writers_list for p in w.games)
    stale = [s for w in r.writers_list for s in w.stale_reads]
    pages = sum(w.page_reads for w in r.writers_list)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    lines = [
        "# Cluster run: many hosts, a streaming standby, faults across them",
        "",
        f"`{command}` at commit `{head}` on {platform.node() or 'this machine'} "
        f"({platform.machine()}, 2 shared cores): hosts are network namespaces on one private switch "
        "(bench/cluster/). Every figure below comes from this one run.",
        "",
        "| what | value |",
        "|---|---|",
        f"| app hosts | {r.app_hosts} |",
        "| load balancer | nginx (Debian) as in docker/nginx.conf: passive health checks, next upstream on connection errors and timeouts |",
        "| database | PostgreSQL primary + streaming hot standby (`pg_basebackup -R`), synchronous replication |",
        "| cache | Redis (one server, no persistence) |",
        f"| writers / spectators (event streams) | {r.writers} / {v.streams} |",
        f"| load time / setup time | {r.load_seconds:.0f} s / {r.setup_seconds:.0f} s |",
        f"| games played | {v.games} |",
        f"| requests sent | {len(outcomes)} |",
        f"| actions acknowledged | {acked} ({acked / max(r.load_seconds, 1):.1f}/s) |",
        f"| events in the primary's log | {v.events} |",
        f"| reads served by the replica | {r.replica_reads} |",
        f"| event pages read back after an action / stale or short | {pages} / {len(stale)} |",
        f"| events lost / duplicated | {v.lost} / {v.duplicated} |",
        f"| acknowledged at another version / games with seq gaps | {v.wrong_version} / {v.gaps} |",
        f"| actions applied but never acknowledged (client gave up) | {v.unacknowledged_applied} |",
        f"| audits passed / failed | {v.audits_ok} / {v.audits_failed} |",
        f"| streams identical to the log / followed | {v.streams_matching} / {v.streams} |",
        f"| stream events received | {v.stream_events} |",
        f"| client-visible errors (5xx or no answer) | {len(errors)} |",
        "",
        "## Client-visible errors by status",
        "",
        "| status | count |",
        "|---|---|",
        *(f"| {status} | {n} |" for status, n in by_status.most_common()),
        *([] if by_status else ["| none | 0 |"]),
        "",
        "Refusals (4xx, the rules or the API saying no; none is expected from these clients): "
        + (", ".join(f"{s}: {n}" for s, n in refusals.most_common()) or "none") + ".",
        "",
        "## Latency (ms, through the balancer, answers 2xx)",
        "",
        "| request | count | p50 / p99 | p50 / p99 while the standby was paused |",
        "|---|---|---|---|",
        *_latency_rows(outcomes, r.faults),
        "",
        "## Faults and recovery",
        "",
        "Recovery is the time from the fault to the last client-visible error it caused (0: none was seen).",
        "",
        "| fault | how | at (s) | client-visible errors | recovery (s) | notes |",
        "|---|---|---|---|---|---|",
    ]
    ends = [f.at for f in r.faults[1:]] + [float("inf")]
    for fault, end in zip(r.faults, ends, strict=True):
        window = [o for o in errors if fault.at <= o.at < end]
        recovery = (window[-1].at - fault.at) if window else 0.0
        lines.append(f"| {fault.name} | {fault.how} | {fault.at - r.t0:.1f} | {len(window)} | {recovery:.2f} | "
                     f"{fault.note} |")
    before = [o for o in errors if r.faults and o.at < r.faults[0].at]
    lines += [
        "",
        f"Errors before the first fault: {len(before)}. Whole run: {r.total_seconds:.0f} s.",
        "",
    ]
    if r.lb_errors:
        lines += ["## What the load balancer logged", "", "| nginx error log line | count |", "|---|---|"]
        lines += [f"| {text} | {n} |" for text, n in Counter(r.lb_errors).most_common(12)]
        lines.append("")
    if errors:
        lines += ["## Every client-visible error", "", "| at (s) | request | status |", "|---|---|---|"]
        lines += [f"| {o.at - r.t0:.2f} | {o.label} | {_status(o)} |" for o in errors[:40]]
        lines.append("")
    if v.problems or stale:
        lines += ["## Problems found", ""]
        lines += [f"- {p}" for p in v.problems]
        lines += [f"- stale read: {s}" for s in stale[:10]]
        lines.append("")
    return "\n".join(lines)
