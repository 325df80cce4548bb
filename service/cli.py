"""The ``cablecar`` command: serve, migrate, bot, verify, organiser."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from service.bot import add_parser as add_bot


def _serve(args: argparse.Namespace) -> int:
    from gunicorn.app.base import BaseApplication

    from service.app import create_app
    from service.config import Settings

    settings = Settings.from_env()
    if settings.database_url is None:
        os.makedirs(settings.data_dir, exist_ok=True)
        print(f"cablecar: embedded mode: SQLite in {os.path.abspath(settings.data_dir)}, in-process cache")
    workers = args.workers if args.workers is not None else settings.workers
    threads = args.threads if args.threads is not None else settings.threads

    class _App(BaseApplication):
        def load_config(self) -> None:
            import service.gunicorn_conf as conf

            for key in ("worker_class", "timeout", "graceful_timeout", "keepalive", "errorlog", "loglevel",
                        "access_log_format"):
                self.cfg.set(key, getattr(conf, key))
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("accesslog", "-" if args.access_log else None)

        def load(self) -> Any:
            return create_app(settings)

    print(f"cablecar: serving on http://{args.host}:{args.port} ({workers} workers x {threads} threads)")
    _App().run()
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from events import migrate

    url = args.database_url or os.environ.get("DATABASE_URL")
    if not url:
        print("cablecar migrate: set DATABASE_URL (or --database-url) to a PostgreSQL URL; "
              "the embedded SQLite store migrates itself when opened", file=sys.stderr)
        return 2
    applied = migrate.migrate(url)
    print("applied: " + (", ".join(applied) if applied else "nothing (schema up to date)"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``cablecar``."""
    parser = argparse.ArgumentParser(prog="cablecar", description="Cable Car game server")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP server (gunicorn)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=None)
    serve.add_argument("--threads", type=int, default=None)
    serve.add_argument("--access-log", action="store_true", help="log every request")
    serve.set_defaults(func=_serve)

    mig = sub.add_parser("migrate", help="apply the PostgreSQL schema migrations")
    mig.add_argument("--database-url", default=None)
    mig.set_defaults(func=_migrate)

    add_bot(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cablecar`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    result = args.func(args)
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
