"""CPU time spent by each part of the stack during a phase (Linux ``/proc``).

On a machine with 2 cores shared by the server, the database, Redis and the
clients, throughput is bound by CPU, so *CPU milliseconds per accepted
action* (per process group) explains a throughput ratio better than wall
time: it is what each action costs whoever runs it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    """utime + stime of one process (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def tree_cpu(root: int) -> dict[int, float]:
    """CPU seconds of ``root`` and every descendant, by pid."""
    out: dict[int, float] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        out[pid] = _cpu_seconds(pid)
        todo.extend(_children(pid))
    return out


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two readings (processes started meanwhile count in full)."""
    return sum(max(0.0, t - before.get(pid, 0.0)) for pid, t in after.items())


@dataclass(frozen=True)
class CpuGroups:
    """The processes watched: (name, pid, with its descendants?)."""

    roots: tuple[tuple[str, int, bool], ...]

    def read(self) -> dict[str, dict[int, float]]:
        """A reading of every group."""
        return {name: tree_cpu(pid) if tree else {pid: _cpu_seconds(pid)} for name, pid, tree in self.roots}


@dataclass(frozen=True)
class CpuUse:
    """CPU seconds per group over one phase."""

    seconds: tuple[tuple[str, float], ...]

    @classmethod
    def between(cls, before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]) -> CpuUse:
        """CPU spent per group between two readings."""
        return cls(tuple((name, spent(before.get(name, {}), tree)) for name, tree in after.items()))

    def plus(self, other: CpuUse) -> CpuUse:
        """Two phases together."""
        mine = dict(self.seconds)
        for name, t in other.seconds:
            mine[name] = mine.get(name, 0.0) + t
        return CpuUse(tuple(mine.items()))

    def per(self, count: int) -> tuple[tuple[str, float], ...]:
        """CPU milliseconds per unit of work, by group, then the total."""
        rows = [(name, t * 1000 / count if count else float("nan")) for name, t in self.seconds]
        total = sum(t for _, t in self.seconds) * 1000 / count if count else float("nan")
        return (*rows, ("total", total))



def per_action_and_game(chunks: list[tuple[int, int, float]]) -> tuple[float, float] | None:
    """Least squares over chunks of ``(actions, games created, CPU seconds)``:
    ``(ms per action, ms per game created)`` with CPU = a * actions + b * games,
    or None when the chunks cannot tell the two apart.  Every write-path
    client creates a game at the start of a chunk, so in a slow chunk the
    creations weigh more per action: this separates them."""
    saa = sum(n * n for n, _, _ in chunks)
    sgg = sum(g * g for _, g, _ in chunks)
    sag = sum(n * g for n, g, _ in chunks)
    sac = sum(n * c for n, _, c in chunks)
    sgc = sum(g * c for _, g, c in chunks)
    det = saa * sgg - sag * sag
    if len(chunks) < 2 or det <= 1e-9 * max(1.0, saa * sgg):
        return None
    return (sac * sgg - sgc * sag) / det * 1000, (saa * sgc - sag * sac) / det * 1000
