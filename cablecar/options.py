"""What the ``cablecar`` subcommands share: exit codes and the ``--data-dir`` option."""

from __future__ import annotations

import argparse

#: exit codes: a failure, and a command that cannot run as given (argparse's too)
FAILED, USAGE = 1, 2


def data_dir_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", metavar="DIR", default=None,
        help="folder of the embedded SQLite store (default: $CABLECAR_DATA_DIR, else the platform's "
             "user data folder; printed when the command starts)",
    )
