"""``python -m bench.load [options]``: the whole harness (see bench/README.md)."""

from __future__ import annotations

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
    return main_with(parse_args(sys.argv[1:], command), render)


if __name__ == "__main__":
    sys.exit(main())
