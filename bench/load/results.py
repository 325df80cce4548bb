"""What one run of the harness measured, and where it ran (its commit, Python, machine)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from dataclasses import dataclass, field

from bench.load.cachestats import CacheCounts
from bench.load.config import HarnessConfig
from bench.load.cpu import CpuUse
from bench.load.faults import (
    FaultResult,
    RaceOutcome,
)
from bench.load.fuzz import FuzzSection
from bench.load.growth import GrowthResult
from bench.load.integrity import IntegrityReport
from bench.load.load import PhaseResult
from bench.load.profile import ActionProfile
from bench.load.pyspy import Profile
from bench.load.scaling import ScalingRow
from bench.load.security import SecurityTable
from bench.load.stack import ROOT, Services
from bench.load.streams import StreamsSection

#: the server whose CPU a phase kind measures
SERVER_OF = {"baseline": "gunicorn: baseline", "write path": "gunicorn: service",
             "compared write path": "gunicorn: compared", "full-path write path": "gunicorn: full path",
             "Flask baseline": "gunicorn: Flask baseline"}


@dataclass(frozen=True)
class LoadSection:
    """Service write path against the baseline, then the bot mix."""

    baseline: tuple[PhaseResult, ...]
    write: tuple[PhaseResult, ...]
    #: the write path against the service without worker-local state (empty if not run)
    fullpath: tuple[PhaseResult, ...]
    #: inserts against the one-route Flask baseline (empty if not run)
    flask_baseline: tuple[PhaseResult, ...]
    bots: PhaseResult
    write_cache: CacheCounts
    bots_cache: CacheCounts
    redis_keyspace: tuple[int, int] | None
    write_integrity: IntegrityReport
    bot_audits: tuple[int, int]
    #: CPU per phase kind (baseline, write path, full path, bot mix)
    cpu: tuple[tuple[str, CpuUse], ...]
    #: the write path of ``--compare-with``'s revision, alternated with this one's (empty if not run)
    compare: tuple[PhaseResult, ...] = ()
    compare_integrity: IntegrityReport | None = None
    #: per phase kind, its server's (actions, games created, CPU seconds) in each chunk
    chunks: tuple[tuple[str, tuple[tuple[int, int, float], ...]], ...] = ()

    @staticmethod
    def total_rate(results: tuple[PhaseResult, ...]) -> float:
        """Accepted per second over several chunks."""
        seconds = sum(r.seconds for r in results)
        return sum(r.accepted for r in results) / seconds if seconds else 0.0

    @property
    def ratio(self) -> float:
        """Service actions/s over baseline inserts/s."""
        return self.ratio_of(self.write)

    @property
    def flask_ratio(self) -> float:
        """Service actions/s over the Flask baseline's inserts/s (nan if not run)."""
        flask = self.total_rate(self.flask_baseline)
        return self.total_rate(self.write) / flask if flask else float("nan")

    def ratio_of(self, results: tuple[PhaseResult, ...]) -> float:
        """Accepted/s of ``results`` over baseline inserts/s."""
        base = self.total_rate(self.baseline)
        return self.total_rate(results) / base if base else float("nan")


@dataclass
class RunResults:
    """Everything the report shows (sections not run stay None)."""

    config: HarnessConfig
    environment: dict[str, str] = field(default_factory=dict)
    load: LoadSection | None = None
    profile: ActionProfile | None = None
    #: py-spy's self times on the workers over the write path (``--py-spy``)
    py_spy: Profile | None = None
    growth: GrowthResult | None = None
    faults: list[FaultResult] = field(default_factory=list)
    races: tuple[RaceOutcome, ...] = ()
    streams: StreamsSection | None = None
    security: tuple[SecurityTable, ...] | None = None
    fuzz: FuzzSection | None = None
    scaling: tuple[ScalingRow, ...] | None = None
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _git(*args: str) -> str:
    out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return out.stdout.strip()


def _version(argv: list[str]) -> str:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except OSError:
        return "?"
    return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else "?"


def environment(services: Services) -> dict[str, str]:
    """Machine and software facts for the report."""
    source = os.environ.get("CABLECAR_BENCH_SOURCE", "")
    return {
        "commit": source or _git("rev-parse", "--short", "HEAD") or "?",
        "python": platform.python_version(),
        "cpus": str(os.cpu_count()),
        "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "postgresql": _version([str(services.pg_bin / "postgres"), "--version"]),
        "redis": _version(["redis-server", "--version"]),
        "gunicorn": _version([sys.executable, "-m", "gunicorn", "--version"]),
    }
