"""The harness' settings (every one is a command-line option)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.load.stack import ROOT

SECTIONS = ("load", "fullpath", "flaskbase", "profile", "growth", "faults", "streams", "security", "fuzz", "scaling")
#: sections run only when named in ``--only`` (the soak takes minutes and writes its own report)
OPTIONAL_SECTIONS = ("soak",)


@dataclass(frozen=True)
class HarnessConfig:
    """Sizes and switches of one harness run."""

    clients: int = 32
    seconds: float = 60.0
    rounds: int = 4
    bot_seconds: float = 30.0
    workers: int = 3
    threads: int = 8
    scripts: int = 24
    fault_clients: int = 16
    fault_seconds: float = 20.0
    fault_warmup: float = 5.0
    outage: float = 3.0
    racers: int = 50
    race_rounds: int = 3
    growth_reps: int = 10
    schemathesis_examples: int = 10
    schemathesis_max_time: int = 120
    body_examples: int = 400
    #: event streams held open at once in the streams section
    streams: int = 1000
    sections: tuple[str, ...] = SECTIONS
    #: the stacks the security section attacks (bench/load/security_run.py)
    security_stacks: tuple[str, ...] = ("production", "embedded")
    #: PostgreSQL with fsync=on and synchronous_commit=on (the baseline commits the same way)
    durable: bool = False
    #: py-spy on the service's workers during the write path (bench/load/pyspy.py)
    py_spy: bool = False
    #: another commit of the service (its source folder or a git revision), alternated with this one in the load
    compare_with: str | None = None
    scaling_clients: tuple[int, ...] = (1, 4, 16, 64)
    scaling_seconds: float = 4.0
    scaling_rounds: int = 2
    report: Path = ROOT / "bench" / "results" / "REPORT.md"
    services_dir: Path = Path("/tmp/cablecar-bench-services")
    workdir: Path = Path("/tmp/cablecar-bench-run")
    keep_services: bool = False
    command: str = "bash bench/run.sh"
    #: the durability soak (``--only soak``, bench/load/soak.py): seconds of writing per mode
    soak_seconds: float = 120.0
    soak_modes: tuple[str, ...] = ("embedded", "production")
    soak_clients: int = 8
    soak_fault_every: float = 5.0
    soak_max_requests: int = 100
    soak_report: Path = ROOT / "bench" / "results" / "SOAK.md"


def parse_args(argv: Sequence[str] | None = None, command: str = "bash bench/run.sh") -> HarnessConfig:
    """The config from command-line options."""
    d = HarnessConfig()
    p = argparse.ArgumentParser(prog="bench/run.sh", description="Cable Car load, faults and speed harness")
    p.add_argument("--clients", type=int, default=d.clients, help="concurrent load clients")
    p.add_argument("--seconds", type=float, default=d.seconds,
                   help="load time of the service's write path and of the baseline (each)")
    p.add_argument("--rounds", type=int, default=d.rounds,
                   help="baseline and service alternate in this many chunks of seconds/rounds")
    p.add_argument("--bot-seconds", type=float, default=d.bot_seconds, help="load time of the bot mix")
    p.add_argument("--workers", type=int, default=d.workers, help="gunicorn workers")
    p.add_argument("--threads", type=int, default=d.threads, help="gunicorn threads per worker")
    p.add_argument("--scripts", type=int, default=d.scripts, help="distinct scripted games")
    p.add_argument("--fault-clients", type=int, default=d.fault_clients)
    p.add_argument("--fault-seconds", type=float, default=d.fault_seconds, help="load time of each fault scenario")
    p.add_argument("--fault-warmup", type=float, default=d.fault_warmup, help="seconds of load before the fault")
    p.add_argument("--outage", type=float, default=d.outage, help="seconds Redis stays down / between kills")
    p.add_argument("--racers", type=int, default=d.racers, help="clients sending the same action at once")
    p.add_argument("--race-rounds", type=int, default=d.race_rounds)
    p.add_argument("--growth-reps", type=int, default=d.growth_reps)
    p.add_argument("--schemathesis-examples", type=int, default=d.schemathesis_examples)
    p.add_argument("--schemathesis-max-time", type=int, default=d.schemathesis_max_time)
    p.add_argument("--body-examples", type=int, default=d.body_examples, help="hypothesis action bodies")
    p.add_argument("--streams", type=int, default=d.streams, help="event streams open at once (streams section)")
    p.add_argument("--security-stacks", default=",".join(d.security_stacks),
                   help="security section: production (gunicorn + PostgreSQL + Redis), embedded (cablecar serve) or both")
    p.add_argument("--durable", action="store_true",
                   help="PostgreSQL with fsync=on and synchronous_commit=on (default: both off, as in the tests)")
    p.add_argument("--py-spy", action="store_true",
                   help="load: record the service's gunicorn workers with py-spy during the write path "
                        "(self time per action by function in the report; slows the service down)")
    p.add_argument("--compare-with", default=None, metavar="REV",
                   help="load: also serve this git revision of the service (exported to --workdir) and run its "
                        "write path in every round, right after this one's: before/after in one run (on one database: "
                        "the revision is given this checkout's later migrations, which must only add)")
    p.add_argument("--scaling-clients", default=",".join(map(str, d.scaling_clients)),
                   help="client counts of the scaling section")
    p.add_argument("--scaling-seconds", type=float, default=d.scaling_seconds, help="seconds per scaling cell")
    p.add_argument("--scaling-rounds", type=int, default=d.scaling_rounds)
    p.add_argument("--only", default=",".join(d.sections),
                   help=f"comma-separated sections of {SECTIONS + OPTIONAL_SECTIONS} (soak: only when named)")
    p.add_argument("--soak-seconds", type=float, default=d.soak_seconds, help="soak: seconds of writing per mode")
    p.add_argument("--soak-modes", default=",".join(d.soak_modes), help="soak: embedded, production or both")
    p.add_argument("--soak-clients", type=int, default=d.soak_clients, help="soak: scripted writers")
    p.add_argument("--soak-fault-every", type=float, default=d.soak_fault_every,
                   help="soak: seconds between two workers stopped (SIGTERM, SIGKILL, SIGTERM, ...)")
    p.add_argument("--soak-max-requests", type=int, default=d.soak_max_requests,
                   help="soak: CABLECAR_MAX_REQUESTS of the servers (workers recycle themselves)")
    p.add_argument("--soak-report", type=Path, default=d.soak_report)
    p.add_argument("--report", type=Path, default=d.report)
    p.add_argument("--services-dir", type=Path, default=d.services_dir,
                   help="state directory of the private PostgreSQL/Redis (scripts/test-services.sh)")
    p.add_argument("--workdir", type=Path, default=d.workdir, help="logs and scratch files")
    p.add_argument("--keep-services", action="store_true", help="leave PostgreSQL and Redis running")
    a = p.parse_args(argv)
    sections = tuple(s.strip() for s in a.only.split(",") if s.strip())
    unknown = set(sections) - set(SECTIONS) - set(OPTIONAL_SECTIONS)
    if unknown:
        p.error(f"unknown sections {sorted(unknown)}; choose from {SECTIONS + OPTIONAL_SECTIONS}")
    modes = tuple(m.strip() for m in a.soak_modes.split(",") if m.strip())
    if not modes or set(modes) - {"embedded", "production"}:
        p.error(f"--soak-modes: embedded, production or both, not {a.soak_modes!r}")
    stacks = tuple(m.strip() for m in a.security_stacks.split(",") if m.strip())
    if not stacks or set(stacks) - {"embedded", "production"}:
        p.error(f"--security-stacks: embedded, production or both, not {a.security_stacks!r}")
    return HarnessConfig(
        clients=a.clients, seconds=a.seconds, rounds=max(1, a.rounds), bot_seconds=a.bot_seconds,
        workers=a.workers, threads=a.threads, scripts=a.scripts, fault_clients=a.fault_clients,
        fault_seconds=a.fault_seconds, fault_warmup=a.fault_warmup, outage=a.outage, racers=a.racers,
        race_rounds=a.race_rounds, growth_reps=a.growth_reps, schemathesis_examples=a.schemathesis_examples,
        schemathesis_max_time=a.schemathesis_max_time, body_examples=a.body_examples, streams=a.streams, sections=sections,
        security_stacks=stacks,
        durable=a.durable, py_spy=a.py_spy, compare_with=a.compare_with, scaling_clients=tuple(int(c) for c in a.scaling_clients.split(",") if c.strip()),
        scaling_seconds=a.scaling_seconds, scaling_rounds=max(1, a.scaling_rounds),
        report=a.report, services_dir=a.services_dir, workdir=a.workdir, keep_services=a.keep_services,
        command=command, soak_seconds=a.soak_seconds, soak_modes=modes, soak_clients=a.soak_clients,
        soak_fault_every=a.soak_fault_every, soak_max_requests=a.soak_max_requests, soak_report=a.soak_report,
    )
