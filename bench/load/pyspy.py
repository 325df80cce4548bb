"""py-spy on the service's gunicorn workers during the write path (``--py-spy``).

``py-spy record --subprocesses --nonblocking --format raw`` follows the master and every
worker while the write-path chunks run; its samples are of busy threads only (an idle
gevent hub waiting in ``epoll`` is not sampled), so a frame's self samples divided by
the rate are CPU seconds spent in it.  Divided by the actions accepted meanwhile, that
is the *self time per action* the table shows (issue 41: ``bench/results/PROFILE.md``).
The collapsed stacks are kept (``--workdir``/pyspy-*.txt) for a flame graph
(``flamegraph.pl`` or speedscope read them as they are).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

#: samples per second per process (py-spy's default is 100)
RATE = 200
#: "frame (file:line)" -> "frame (file)": self time by function, not by line
_LINE = re.compile(r":\d+\)$")


def _py_spy() -> str:
    here = Path(sys.executable).with_name("py-spy")
    found = str(here) if here.exists() else shutil.which("py-spy")
    if found is None:
        raise RuntimeError("py-spy is not installed (pip install py-spy: the bench extra)")
    return found


class Recording:
    """One py-spy process following ``pid`` and its children until :meth:`stop`."""

    def __init__(self, pid: int, out: Path) -> None:
        self.out = out
        out.parent.mkdir(parents=True, exist_ok=True)
        self.log = out.with_suffix(".log").open("w")
        self.proc = subprocess.Popen(
            [_py_spy(), "record", "--pid", str(pid), "--subprocesses", "--nonblocking", "--format", "raw",
             "--rate", str(RATE), "--output", str(out)],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
        )

    def stop(self) -> None:
        """SIGINT makes py-spy write its file and exit."""
        self.proc.send_signal(2)
        try:
            self.proc.wait(timeout=60)
        finally:
            self.log.close()


@dataclass(frozen=True)
class FrameTime:
    """A function's self time (samples on top of the stack)."""

    frame: str
    samples: int
    ms_per_action: float
    share: float


@dataclass(frozen=True)
class Profile:
    """The workers' samples over the write path, by function."""

    samples: int
    actions: int
    top: tuple[FrameTime, ...]
    files: tuple[str, ...]
    #: the workers' CPU per accepted action over the same chunks (``/proc``), to scale the shares by
    cpu_ms_per_action: float = float("nan")

    @property
    def ms_per_action(self) -> float:
        """Sampled CPU milliseconds per accepted action."""
        return self.samples * 1000 / RATE / self.actions if self.actions else float("nan")


def self_times(raw_files: list[Path]) -> Counter[str]:
    """Samples per leaf function over py-spy raw (collapsed) files: ``a;b;c N`` lines."""
    leaves: Counter[str] = Counter()
    for path in raw_files:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            leaf = stack.rsplit(";", 1)[-1]
            leaves[_LINE.sub(")", leaf)] += int(count)
    return leaves


def summarize(raw_files: list[Path], actions: int, cpu_ms_per_action: float, top: int = 15) -> Profile:
    """The ``top`` functions by self time, per accepted action."""
    leaves = self_times(raw_files)
    total = sum(leaves.values())
    rows = tuple(
        FrameTime(frame, n, n * 1000 / RATE / actions if actions else float("nan"), n / total if total else 0.0)
        for frame, n in leaves.most_common(top)
    )
    return Profile(total, actions, rows, tuple(str(p) for p in raw_files), cpu_ms_per_action)


def markdown(profile: Profile) -> list[str]:
    """The table of :func:`summarize` as report lines."""
    cpu = profile.cpu_ms_per_action
    lines = [
        f"py-spy ({RATE} Hz per process) on the service's gunicorn workers during the write path: "
        f"**{profile.samples:,} samples, {profile.actions:,} accepted actions** "
        f"({profile.ms_per_action:.2f} ms sampled per action; the workers' CPU from `/proc` over the same chunks: "
        f"**{cpu:.2f} ms per action**). py-spy samples every thread that is running *or runnable*, so on a busy "
        "machine a frame that wakes another process (a send) collects samples while this worker waits for a "
        "core: read the shares; the last column scales them to the measured CPU. Raw stacks: "
        f"{', '.join(profile.files)}.",
        "",
        "| # | function (file) | self samples / action | share | share x CPU per action (ms) |",
        "|---|---|---|---|---|",
    ]
    for i, row in enumerate(profile.top, 1):
        frame = row.frame.replace("|", "\\|")
        lines.append(f"| {i} | `{frame}` | {row.ms_per_action * RATE / 1000:.3f} | {row.share:.1%} | "
                     f"{row.share * cpu:.3f} |")
    return lines
