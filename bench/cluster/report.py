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
    #: when the fault was undone (None: never, e.g. a process killed and left to the system)
    end: float | None = None
    #: actions acknowledged between ``at`` and ``end``
    acks: int | None = None
    #: the longest time without an acknowledged action after the fault (the primary's loss)
    outage: float | None = None
    #: what moved in the scraped metrics: (signal, seconds after the fault, how much)
    signals: list[tuple[str, float, str]] = field(default_factory=list)


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


def _latency_rows(outcomes: list[Outcome]) -> list[str]:
    """p50 / p99 per request kind over the whole run."""
    rows = []
    for label in sorted({o.label for o in outcomes}):
        every = [o.seconds for o in outcomes if o.label == label and 200 <= o.status < 300]
        rows.append(f"| {label} | {len(every)} | {_ms(every, 0.5)} / {_ms(every, 0.99)} |")
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
    by_name = {f.name: f for f in r.faults}
    killed = next((f for f in r.faults if f.name.startswith("primary SIGKILLed")), None)
    standby = by_name.get("synchronous standby lost")
    partition = by_name.get("app host cut off from the databases")
    switch = by_name.get("switchover (planned)")

    def acks_row(f: Fault | None, seconds: str) -> str:
        if f is None or f.acks is None or f.end is None:
            return "not run"
        span = f.end - f.at
        return f"{f.acks} in {span:.0f} s ({f.acks / max(span, 1):.1f}/s; {seconds})"

    rate = acked / max(r.load_seconds, 1)
    lines = [
        "# Cluster run: Patroni failover, faults across hosts, checks that can fail",
        "",
        f"`{command}` at commit `{head}` on {platform.node() or 'this machine'} "
        f"({platform.machine()}, 2 shared cores): hosts are network namespaces on one private switch "
        "(bench/cluster/). Every figure below comes from this one run.",
        "",
        "| what | value |",
        "|---|---|",
        f"| failover engine | {r.extra.get('failover engine', '?')} |",
        f"| write outage on primary kill | {f'{killed.outage:.1f} s' if killed and killed.outage is not None else 'not run'} |",
        f"| acks during standby loss | {acks_row(standby, f'whole run {rate:.1f}/s')} |",
        f"| acks during app-host partition | {acks_row(partition, f'whole run {rate:.1f}/s')} |",
        f"| write outage on a planned switchover | {f'{switch.outage:.1f} s' if switch and switch.outage is not None else 'not run'} |",
        f"| fsync | {r.extra.get('fsync', '?')} |",
        f"| events lost / duplicated | {v.lost} / {v.duplicated} |",
        f"| acknowledged actions stored with other contents / games with seq gaps | {v.changed} / {v.gaps} |",
        f"| app hosts | {r.app_hosts} (clock: {r.extra.get('clock', 'correct')}) |",
        "| load balancer | HAProxy (Debian) as in docker/haproxy.cfg: `/v1/health` checked every second, a host out "
        "after 2 failures (its 503 included), back after 2 successes; a failed connection retried on another host |",
        "| database | PostgreSQL: a primary and two streaming standbys run by Patroni (etcd); app hosts name all "
        "three (libpq multi-host URLs: `read-write` for writes, `prefer-standby` for reads) |",
        "| cache | Redis (one server, no persistence) |",
        f"| writers / spectators followed (live games, an ended one replaced) | {r.writers} / {v.streams} |",
        f"| load time / setup time | {r.load_seconds:.0f} s / {r.setup_seconds:.0f} s |",
        f"| games played | {v.games} |",
        f"| requests sent | {len(outcomes)} |",
        f"| actions acknowledged (each by its own random key) | {acked} ({rate:.1f}/s) |",
        f"| events in the primary's log | {v.events} |",
        f"| reads served by a standby (pages, from the hosts' metrics) | {r.replica_reads} |",
        f"| event pages read back after an action / stale or short | {pages} / {len(stale)} |",
        f"| actions applied but never acknowledged (client gave up) | {v.unacknowledged_applied} |",
        f"| audits passed / failed | {v.audits_ok} / {v.audits_failed} |",
        f"| streams identical to the log / followed | {v.streams_matching} / {v.streams} |",
        f"| stream events received | {v.stream_events} |",
        f"| client-visible errors (5xx or no answer) | {len(errors)} |",
        f"| primary at the end | {r.extra.get('primary at the end', '?')} |",
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
        "| request | count | p50 / p99 |",
        "|---|---|---|",
        *_latency_rows(outcomes),
        "",
        "## Faults and recovery",
        "",
        "Errors are the client-visible ones from the fault's start to the next fault's; recovery is the time from "
        "the fault to the last of them (0: none was seen).",
        "",
        "| fault | how | at (s) | lasted (s) | acks meanwhile | client-visible errors (by status) | recovery (s) | notes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    ends = [f.at for f in r.faults[1:]] + [float("inf")]
    for fault, end in zip(r.faults, ends, strict=True):
        window = [o for o in errors if fault.at <= o.at < end]
        recovery = (window[-1].at - fault.at) if window else 0.0
        kinds = ", ".join(f"{s}: {n}" for s, n in Counter(_status(o) for o in window).most_common()) or "none"
        lasted = f"{fault.end - fault.at:.1f}" if fault.end is not None else "-"
        lines.append(f"| {fault.name} | {fault.how} | {fault.at - r.t0:.1f} | {lasted} | "
                     f"{fault.acks if fault.acks is not None else '-'} | {kinds} | {recovery:.2f} | {fault.note} |")
    lines += ["", "## What the app hosts' metrics showed (scraped every second)", "",
              "Each signal that moved from the fault's start to 15 s after its end, when it first moved, and how "
              "far (a counter's increase on the host where it rose most; a gauge's largest value).", "",
              "| fault | signal | first moved after (s) | how much |", "|---|---|---|---|"]
    for fault in r.faults:
        for name, after, much in fault.signals or [("nothing moved", 0.0, "")]:
            lines.append(f"| {fault.name} | {name} | {after:.1f} | {much} |")
    lines.append("")
    before = [o for o in errors if r.faults and o.at < r.faults[0].at]
    lines += [
        "",
        f"Errors before the first fault: {len(before)}. Whole run: {r.total_seconds:.0f} s.",
        "",
    ]
    if r.lb_errors:
        lines += ["## What the load balancer said of the app hosts", "", "| HAProxy line | count |", "|---|---|"]
        lines += [f"| {text[:160]} | {n} |" for text, n in Counter(r.lb_errors).most_common(12)]
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
