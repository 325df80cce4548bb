"""The embedded default's write path: ``cablecar serve`` on its SQLite file, scripted players.

The load harness (``bash bench/run.sh --only load``) measures the production stack; this
measures what a user first meets: ``cablecar serve`` with no database URL (threaded
workers, one SQLite file, its own defaults), the same scripted players as the harness'
write path (every action POSTed with ``expected_version`` and an ``Idempotency-Key``)
for ``--seconds`` in ``--rounds`` chunks.  It prints accepted actions per second and the
server's CPU per accepted action (master and workers, from ``/proc``), p50/p99 of
``POST /v1/games/{id}/actions``.  To compare two commits, run it in an export of each,
alternating (``CABLECAR_BENCH_FROM`` does not apply: this is not the harness)::

    python -m bench.bench_embedded --seconds 20 --rounds 2
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.load.clients import Phase, ScriptedPlayer
from bench.load.cpu import CpuGroups, CpuUse
from bench.load.load import run_phase
from bench.load.scripts import make_script
from bench.load.soak import SoakSettings, embedded_server
from bench.load.stats import Recorder, latencies, merge


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20.0, help="load time in all")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=8)
    a = p.parse_args()
    scripts = [make_script(f"embedded-{i}") for i in range(24)]
    with tempfile.TemporaryDirectory(prefix="cablecar-embedded-") as tmp:
        cfg = SoakSettings(workers=a.workers, threads=a.threads, max_requests=0)
        server = embedded_server(Path(tmp) / "data", Path(tmp) / "server.log", cfg)
        try:
            server.wait_ready()
            groups = CpuGroups((("server", server.proc.pid, True),))
            accepted, seconds, cpu = 0, 0.0, None
            recorders: list[Recorder] = []
            for r in range(a.rounds):
                before = groups.read()
                def player(phase: Phase, i: int, r: int = r) -> ScriptedPlayer:
                    return ScriptedPlayer(phase, scripts, f"e{r}-{i}", i * 3 + r * 100)

                result = run_phase(f"embedded-{r}", server.url, player, a.clients, a.seconds / a.rounds)
                used = CpuUse.between(before, groups.read())
                cpu = used if cpu is None else cpu.plus(used)
                accepted += result.accepted
                seconds += result.seconds
                recorders.append(result.recorder)
            assert cpu is not None
            per = dict(cpu.per(accepted))
            print(f"embedded: {accepted / seconds:,.1f} actions/s ({accepted:,} in {seconds:.1f} s, "
                  f"{a.clients} clients, {a.workers} workers x {a.threads} threads); "
                  f"server CPU {per['server']:.2f} ms per action")
            for lat in latencies(merge(recorders)):
                if lat.label.endswith("/actions"):
                    print(f"  {lat.label}: n={lat.count} p50 {lat.p50:.1f} ms, p99 {lat.p99:.1f} ms")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
