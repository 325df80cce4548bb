"""The ``cablecar`` command: serve, migrate, bot, verify, organiser, webhooks."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.bot import add_parser as add_bot

if TYPE_CHECKING:
    from events.database import Database
    from service.config import Settings
    from service.queries import GameQueries


def _serve(args: argparse.Namespace) -> int:
    from gunicorn.app.base import BaseApplication

    from service.config import Settings
    from service.keys import MissingSecretKey, require_secret_key

    settings = Settings.from_env()
    try:
        require_secret_key(settings)
    except MissingSecretKey as e:
        print(f"cablecar serve: {e}", file=sys.stderr)
        return 2
    if settings.database_url is None:
        os.makedirs(settings.data_dir, exist_ok=True)
        print(f"cablecar: embedded mode: SQLite in {os.path.abspath(settings.data_dir)}, in-process cache")
    workers = args.workers if args.workers is not None else settings.workers
    threads = args.threads if args.threads is not None else settings.threads

    class _App(BaseApplication):
        def load_config(self) -> None:
            # Everything of production's configuration (its worker hooks start the
            # webhook dispatchers), then what this command's options say.
            import service.gunicorn_conf as conf

            for key, value in vars(conf).items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("accesslog", "-" if args.access_log else None)

        def load(self) -> Any:
            # Imported in the worker, after a gevent worker has monkey-patched it.
            from service.app import create_app

            return create_app(settings)

    import service.gunicorn_conf as conf

    per_worker = f"{threads} threads" if conf.worker_class == "gthread" else "gevent"
    print(f"cablecar: serving on http://{args.host}:{args.port} ({workers} workers, {per_worker})")
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


def load_export(text: str) -> dict[str, Any]:
    """An export document from its JSON or NDJSON text."""
    import json

    stripped = text.lstrip()
    if stripped.startswith("{") and "\n{" not in stripped.strip():
        data = json.loads(stripped)
        if not isinstance(data, dict):
            raise ValueError("an export is a JSON object")
        return data
    header: dict[str, Any] | None = None
    events: list[Any] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as e:
            raise ValueError(f"line {number} is not JSON: {e}") from e
        kind = item.pop("kind", None) if isinstance(item, dict) else None
        if kind == "header" and header is None:
            header = item
        elif kind == "event":
            events.append(item)
        else:
            raise ValueError(f"line {number}: expected a header line then event lines")
    if header is None:
        raise ValueError("no header line found")
    return {**header, "events": events}


def _verify(args: argparse.Namespace) -> int:
    import json

    from events.verify import verify_export

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        export = load_export(text)
    except (OSError, ValueError) as e:
        print(f"cablecar verify: cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    verdict = verify_export(export)
    if args.json:
        print(json.dumps(verdict.to_json(), indent=2))
    else:
        for check in verdict.checks:
            print(f"{'ok  ' if check.ok else 'FAIL'} {check.name:<8} {check.detail}")
        print(f"verdict: game {verdict.game_id} is {'VALID' if verdict.ok else 'NOT VALID'}")
    return 0 if verdict.ok else 1


def _open_runtime() -> tuple[Settings, Database, GameQueries]:
    """The configured store and the game queries on an in-process cache."""
    import events
    from service.cache import InProcessCache
    from service.config import Settings
    from service.queries import GameQueries

    settings = Settings.from_env()
    store = events.open_store(settings.database_url, settings.data_dir)
    return settings, store, GameQueries(store, InProcessCache(settings.cache_entries))


def _organiser_name(text: str) -> str:
    name = text.strip()
    if not 1 <= len(name) <= 80:
        raise argparse.ArgumentTypeError("an organiser name has 1 to 80 characters")
    return name


def _organiser_create(args: argparse.Namespace) -> int:
    from service.organisers import OrganiserService

    _, store, _ = _open_runtime()
    try:
        created = OrganiserService(store).create(args.name)
    finally:
        store.close()
    print(f"organiser {created.record.organiser_id} ({created.record.name})")
    print(f"token: {created.token}")
    print("The token is shown only now; the server keeps only its hash.", file=sys.stderr)
    return 0


def _webhooks_run(args: argparse.Namespace) -> int:
    import signal
    import threading

    from service.webhooks.dispatcher import WebhookDispatcher
    from service.webhooks.policy import DispatchPolicy

    settings, store, queries = _open_runtime()
    policy = DispatchPolicy.from_settings(settings)
    dispatcher = WebhookDispatcher(store, queries, policy)
    try:
        if args.once:
            report = dispatcher.run_once()
            print(
                f"read {report.events_read} events, created {report.deliveries_created} deliveries, "
                f"made {report.attempts} attempts"
            )
            return 0
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        print(f"cablecar: delivering webhooks (a pass every {policy.poll_seconds:g} s when idle; Ctrl-C stops)")
        dispatcher.run(stop)
        return 0
    finally:
        store.close()


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

    ver = sub.add_parser("verify", help="verify an exported game offline (no server, no database)")
    ver.add_argument("file", help="export file (JSON or NDJSON), or - for standard input")
    ver.add_argument("--json", action="store_true", help="print the verdict as JSON")
    ver.set_defaults(func=_verify)

    org = sub.add_parser("organiser", help="manage tournament organisers")
    org_sub = org.add_subparsers(dest="organiser_command", required=True)
    org_create = org_sub.add_parser("create", help="create an organiser and print its token (shown once)")
    org_create.add_argument("name", type=_organiser_name, help="the organiser's name (a label)")
    org_create.set_defaults(func=_organiser_create)

    hooks = sub.add_parser("webhooks", help="deliver webhooks")
    hooks_sub = hooks.add_subparsers(dest="webhooks_command", required=True)
    hooks_run = hooks_sub.add_parser(
        "run", help="run a webhook dispatcher in this process (any number may run, on any hosts)"
    )
    hooks_run.add_argument("--once", action="store_true", help="make one pass and exit (e.g. from cron)")
    hooks_run.set_defaults(func=_webhooks_run)

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
