"""``python -m bench.load [options]``: the whole harness (see bench/README.md)."""

from __future__ import annotations

import dataclasses
import os
import shlex
import sys

from bench.load.config import parse_args
from bench.load.harness import main_with
from bench.load.report import render


def main() -> int:
    """Parse options, run, write the report."""
    command = os.environ.get("CABLECAR_BENCH_COMMAND") or shlex.join([sys.executable, "-m", "bench.load",
                                                                      *sys.argv[1:]])
    config = parse_args(sys.argv[1:], command)
    others = tuple(s for s in config.sections if s != "soak")
    code = 0
    if others:
        code = main_with(dataclasses.replace(config, sections=others), render)
    if "soak" in config.sections:
        from bench.load.soak_run import run_soak

        code = max(code, run_soak(config))
    return code


if __name__ == "__main__":
    sys.exit(main())
