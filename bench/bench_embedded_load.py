"""Action throughput on the embedded default (``cablecar serve``, no database URL), side by side.

``bash bench/run.sh --only embedded-load [--seconds 20 --rounds 4 --clients 8] [--against DIR ...]``

Scripted players (:class:`bench.load.clients.ScriptedPlayer`, as the load
section's write path: every game created over HTTP, every action POSTed with
``expected_version`` and an Idempotency-Key; ``--mix bots``: reference-style
bots reading the view and the legal actions before each move) write for ``--seconds`` against a
fresh ``cablecar serve`` with its default settings but the per-address limits
(every client is 127.0.0.1).  With ``--against DIR`` (another checkout, e.g. a
worktree of main) the servers of this checkout and of each other one are
measured in turn, ``--rounds`` times, each on a fresh data folder, so that the
noise of a shared machine hits every side alike; the medians and their ratio
are printed (one line per run, then a summary).  The clients are this
checkout's, the server code the side's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from bench.load.clients import BotPlayer, Phase, ScriptedPlayer
from bench.load.cpu import spent, tree_cpu
from bench.load.load import run_phase
from bench.load.scripts import make_script
from bench.load.stack import CLI_MODULE, ROOT, free_port
from bench.room_clients import health_probe

#: every health probe's seconds during the load, per checkout
HEALTH: dict[Path, list[float]] = {}

#: the per-address limits off: every client of the bench is 127.0.0.1
ENV = {"CABLECAR_CREATE_RATE_LIMIT": "off", "CABLECAR_STREAM_RATE_LIMIT": "off",
       "CABLECAR_AUDIT_RATE_LIMIT": "off", "CABLECAR_ACCESS_LOG": "", "CABLECAR_WEBHOOKS": "off"}


def serve(root: Path, data: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``cablecar serve`` of the checkout ``root`` on ``data``; its process and URL once healthy."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(ENV, PYTHONPATH=str(root))
    python = root / ".venv" / "bin" / "python"
    cli = "cablecar.cli" if (root / "cablecar" / "cli.py").exists() else CLI_MODULE
    with log.open("ab") as out:
        proc = subprocess.Popen([str(python if python.exists() else sys.executable), "-m", cli, "serve",
                                 "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)],
                                cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/v1/health", timeout=2) as resp:
                if resp.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError(f"no health within 90 s:\n{log.read_text()[-2000:]}")


def measure(root: Path, seconds: float, clients: int, work: Path, name: str, reads: int = 0,
            mix: str = "scripted") -> tuple[float, float]:
    """Accepted actions per second of one fresh server of ``root``, and the
    server's CPU milliseconds per accepted action (its every process: master,
    workers, bot runners), which a busy machine disturbs less."""
    scripts = [make_script(f"embedded-load-{i}") for i in range(16)]
    data = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=work))
    proc, url = serve(root, data, work / f"{name}.log")
    try:
        time.sleep(1.0)  # every worker up and importing done

        def make(phase: Phase, i: int) -> ScriptedPlayer | BotPlayer:
            if mix == "bots":
                return BotPlayer(phase, f"{name}-c{i}")
            return ScriptedPlayer(phase, scripts, f"{name}-c{i}", i, reads=reads)

        before = tree_cpu(proc.pid)
        stop, health = threading.Event(), []
        prober = threading.Thread(target=health_probe, args=(int(url.rsplit(":", 1)[1]), stop, health), daemon=True)
        prober.start()
        result = run_phase(name, url, make, clients, seconds, drain_seconds=10)
        stop.set()
        cpu = spent(before, tree_cpu(proc.pid))  # the drain's included: a little more than the window's
        HEALTH.setdefault(root, []).extend(health)
        return result.throughput, 1000 * cpu / max(1, len(result.recorder.accepted))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bash bench/run.sh --only embedded-load", description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20.0, help="writing time of one measurement")
    p.add_argument("--clients", type=int, default=8, help="scripted players at once")
    p.add_argument("--reads", type=int, default=0, help="GETs of the acting seat's view after each action")
    p.add_argument("--mix", choices=("scripted", "bots"), default="scripted",
                   help="scripted: actions decided in the client (the load section's write path); bots: every move "
                        "reads the view and the legal actions first, as the reference bot does")
    p.add_argument("--rounds", type=int, default=3, help="measurements per side, alternating")
    p.add_argument("--against", type=Path, action="append", default=[],
                   help="another checkout to measure in turn with this one (repeatable); listed first")
    p.add_argument("--workdir", type=Path, default=Path("/tmp/cablecar-bench-embedded-load"))
    a = p.parse_args(argv)
    a.workdir.mkdir(parents=True, exist_ok=True)
    sides = [*(r.resolve() for r in a.against), ROOT]
    rates: dict[Path, list[float]] = {s: [] for s in sides}
    costs: dict[Path, list[float]] = {s: [] for s in sides}
    for r in range(a.rounds):
        for n, side in enumerate(sides):
            rate, cost = measure(side, a.seconds, a.clients, a.workdir, f"side{n}-round{r}", a.reads, a.mix)
            rates[side].append(rate)
            costs[side].append(cost)
            print(f"round {r + 1} {side}: {rate:.1f} actions/s, {cost:.2f} CPU ms/action (load average "
                  f"{os.getloadavg()[0]:.1f})", flush=True)
    this, this_cost = statistics.median(rates[ROOT]), statistics.median(costs[ROOT])
    for side in sides:
        med, cost = statistics.median(rates[side]), statistics.median(costs[side])
        print(f"median {side}: {med:.1f} actions/s ({', '.join(f'{x:.1f}' for x in rates[side])}), "
              f"{cost:.2f} CPU ms/action"
              + f"; health p99 {1000 * sorted(HEALTH[side])[int(0.99 * len(HEALTH[side]))]:.0f} ms, max "
              f"{1000 * max(HEALTH[side]):.0f} ms"
              + (f"; this checkout / it: throughput {this / med:.3f}, CPU per action {this_cost / cost:.3f}"
                 if side != ROOT and med and cost else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
