"""``cablecar serve`` raises its open-file limit (issue 36): a soft limit of
1,024, common on desktops, would refuse connections long before a gevent
worker's 1,000 streams."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _soft_after(soft: int, hard: int, wanted: int) -> int:
    code = ("import resource; from cablecar.serving import raise_open_files; "
            f"resource.setrlimit(resource.RLIMIT_NOFILE, ({soft}, {hard})); "
            f"print(raise_open_files({wanted}), resource.getrlimit(resource.RLIMIT_NOFILE)[0])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    said, actual = map(int, out.stdout.split())
    assert said == actual
    return actual


def test_the_soft_limit_is_raised_towards_what_the_workers_need() -> None:
    assert _soft_after(1024, 4096, 2256) == 2256


def test_never_past_the_hard_limit_nor_lowered() -> None:
    assert _soft_after(1024, 1500, 2256) == 1500
    assert _soft_after(4000, 4096, 2256) == 4000
