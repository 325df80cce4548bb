"""What the ``cablecar`` subcommands share: exit codes, the ``--data-dir`` option,
the mark of a check line."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from events.integrity.verdict import Check

#: exit codes: a failure, and a command that cannot run as given (argparse's too)
FAILED, USAGE = 1, 2


def data_dir_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", metavar="DIR", default=None,
        help="folder of the embedded SQLite store (default: $CABLECAR_DATA_DIR, else the platform's "
             "user data folder; printed when the command starts)",
    )


def mark(check: Check) -> str:
    """A check's mark: ``ok``, ``FAIL``, or ``--`` for a check not made (never "ok")."""
    return "--  " if not check.checked else "ok  " if check.ok else "FAIL"
