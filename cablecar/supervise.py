"""``cablecar supervise SERVER...``: the Docker image's command.  It starts
the bot runners (``CABLECAR_BOT_RUNNERS`` processes of ``cablecar bots run``,
as ``cablecar serve`` does, on any store), then the server command it is
given (gunicorn with production's configuration), and stays between them:

- a runner that exits is started again (after a pause, so a broken
  configuration is not a hot loop), so a game with a bot seat never waits
  for a runner nobody restarts;
- SIGTERM and SIGINT go to the server (gunicorn's graceful stop), then the
  runners are stopped and the supervisor exits with the server's status.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from typing import Any

#: seconds between looks at the children, and the pause before a runner that exited is started again
POLL_SECONDS = 1.0
RESTART_PAUSE = 5.0


def supervise(args: argparse.Namespace) -> int:
    """Run ``args.server`` with the configured bot runners beside it until the server exits."""
    from cablecar.serving import runner_command, runner_gone, start_bot_runners, start_runner, stop_bot_runner
    from service.config import Settings
    from service.serving.metrics_listener import remove_folder

    if not args.server:
        print("cablecar supervise: name the server command, e.g. `cablecar supervise gunicorn -c "
              "python:service.serving.gunicorn_conf service.serving.wsgi:app`", file=sys.stderr)
        return 2
    settings = Settings.from_env()
    runners = start_bot_runners(settings)
    server = subprocess.Popen(args.server)

    def _forward(signum: int, _frame: Any) -> None:
        if server.poll() is None:
            server.send_signal(signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _forward)
    exited: dict[int, float] = {}  # runner index -> when it was seen gone
    try:
        while server.poll() is None:
            for i, runner in enumerate(runners):
                if runner.poll() is None:
                    continue
                seen = exited.setdefault(i, time.monotonic())
                if time.monotonic() - seen >= RESTART_PAUSE:
                    print(f"cablecar: bot runner exited ({runner.returncode}); starting another", file=sys.stderr)
                    runner_gone(runner)
                    runners[i] = start_runner(runner_command(settings))
                    del exited[i]
            time.sleep(POLL_SECONDS)
    finally:
        for runner in runners:
            stop_bot_runner(runner)
        remove_folder()
    return server.returncode if server.returncode is not None else 1


def add_parser(sub: Any) -> None:
    """Add ``cablecar supervise`` to the CLI."""
    parser = sub.add_parser(
        "supervise", help="run a server command with the bot runners beside it (the Docker image's command)",
        description="Start CABLECAR_BOT_RUNNERS bot runners (`cablecar bots run`, restarted should one exit), "
                    "then run SERVER (e.g. gunicorn) until it exits; SIGTERM and SIGINT go to SERVER.",
    )
    parser.add_argument("server", nargs=argparse.REMAINDER, help="the server command and its arguments")
    parser.set_defaults(func=supervise)
