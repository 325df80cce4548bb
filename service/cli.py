"""The ``cablecar`` command: serve, migrate, bot, verify, keys, organiser, webhooks.

Every failure a user can cause or meet (a server that is down, a refused
request, an unreachable database, a taken port, a file that is no export) is
one line on standard error and a non-zero exit code; ``--debug`` shows the
full traceback instead.  Each subcommand declares its own options; ``bot``
declares its own in ``service/bot.py`` (``add_parser``).
"""

from __future__ import annotations

import argparse
import logging
import sys
import urllib.error
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.bot import ApiProblem
from service.bot import add_parser as add_bot

if TYPE_CHECKING:
    from events.database import Database
    from service.config import Settings
    from service.queries import GameQueries

#: exit codes: a failure, and a command that cannot run as given (argparse's too)
FAILED, USAGE = 1, 2


def version() -> str:
    """The installed package's version."""
    try:
        return metadata.version("cablecar")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        from service.routes.meta import SERVICE_VERSION

        return SERVICE_VERSION


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Shows each option's default after its help, unless it has none worth saying."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if (
            action.option_strings
            and "%(default)" not in text
            and default not in (None, argparse.SUPPRESS)
            and not isinstance(default, bool)
        ):
            text += " (default: %(default)s)"
        return text


class Parser(argparse.ArgumentParser):
    """The parser of ``cablecar`` and of every subcommand under it (argparse makes
    a subcommand's parser of its parent's class): the same help layout, and
    ``--debug`` accepted after any subcommand too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self.add_argument(
            "--debug", action="store_true", default=argparse.SUPPRESS,
            help="on failure, show the full traceback instead of one line",
        )


def _data_dir_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", metavar="DIR", default=None,
        help="folder of the embedded SQLite store (default: $CABLECAR_DATA_DIR, else the platform's "
             "user data folder; printed when the command starts)",
    )


def _serve(args: argparse.Namespace) -> int:
    from service.serving import serve

    return serve(args)


def _migrate(args: argparse.Namespace) -> int:
    from events import migrate
    from service.config import Settings
    from service.location import redact

    url = args.database_url or Settings.from_env().database_url
    if not url:
        print("cablecar migrate: set DATABASE_URL (or --database-url) to a PostgreSQL URL; "
              "the embedded SQLite store migrates itself when opened", file=sys.stderr)
        return USAGE
    print(f"cablecar: migrating {redact(url)}")
    applied = migrate.migrate(url, app_role=args.app_role)
    print("applied: " + (", ".join(applied) if applied else "nothing (schema up to date)"))
    if args.app_role:
        print(f"granted role {args.app_role} what the server needs (reads; writes to the log, the games and "
              "the idempotency keys only through the owner's functions)")
    return 0


def _verify(args: argparse.Namespace) -> int:
    import json

    from events.verify import verify_export
    from service.exportfile import NotAnExport, read_export

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        document = read_export(text)
    except (OSError, UnicodeDecodeError, NotAnExport) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(f"cablecar verify: {args.file}: {reason}", file=sys.stderr)
        return USAGE
    keys = None
    if args.keys is not None:
        from events.verify import KeySet

        try:
            keys = KeySet.from_json(json.loads(Path(args.keys).read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            print(f"cablecar verify: --keys {args.keys}: {why}", file=sys.stderr)
            return USAGE
    verdict = verify_export(document.export, keys)
    if args.json:
        print(json.dumps(verdict.to_json(), indent=2))
    else:
        print(f"read {args.file}: {document.summary}")
        for check in verdict.checks:
            print(f"{'ok  ' if check.ok else 'FAIL'} {check.name:<8} {check.detail}")
        print(f"verdict: game {verdict.game_id} is {'VALID' if verdict.ok else 'NOT VALID'}")
    return 0 if verdict.ok else FAILED


def _key_settings(args: argparse.Namespace) -> Settings:
    """The settings, with the key files given on the command line."""
    import dataclasses

    from service.config import Settings
    from service.location import with_data_dir

    settings = with_data_dir(Settings.from_env(), getattr(args, "data_dir", None))
    if getattr(args, "key_file", None):
        settings = dataclasses.replace(settings, signing_key_file=args.key_file)
    if getattr(args, "retired_file", None):
        settings = dataclasses.replace(settings, retired_keys_file=args.retired_file)
    return settings


def _keys_generate(args: argparse.Namespace) -> int:
    from events.signing import Signer
    from events.timestamps import format_timestamp, system_clock
    from service.infra.signing_keys import key_path, read_key_file, write_key_file

    settings = _key_settings(args)
    if not settings.signing_key_file.strip():
        print("cablecar keys generate: give --key-file PATH (or set CABLECAR_SIGNING_KEY_FILE)", file=sys.stderr)
        return USAGE
    path = key_path(settings)
    made = write_key_file(path, Signer.generate(format_timestamp(system_clock())))
    signer = read_key_file(path)
    print(f"{'made' if made else 'kept the existing'} signing key {signer.key_id} in {path}")
    return 0


def _keys_rotate(args: argparse.Namespace) -> int:
    from service.infra.signing_keys import key_path, retired_path, rotate

    settings = _key_settings(args)
    retired, new = rotate(settings)
    print(f"retired key {retired.key_id} (listed in {retired_path(settings)}); "
          f"new signing key {new.key_id} in {key_path(settings)}")
    print("Restart every server to sign with the new key; records signed before verify with the retired one.",
          file=sys.stderr)
    return 0


def _keys_show(args: argparse.Namespace) -> int:
    import json

    from service.infra.signing_keys import load_server_keys

    keys = load_server_keys(_key_settings(args))
    print(json.dumps({"keys": [k.to_json() for k in keys.public_keys()]}, indent=2))
    return 0


def _open_runtime(args: argparse.Namespace) -> tuple[Settings, Database, GameQueries]:
    """The configured store (said where, first) and the game queries on an in-process cache."""
    import events
    from service.cache import InProcessCache
    from service.config import Settings
    from service.infra.signing_keys import load_server_keys
    from service.location import describe, new_store_notes, with_data_dir
    from service.queries import GameQueries

    settings = with_data_dir(Settings.from_env(), args.data_dir)
    for note in new_store_notes(settings):
        print(f"cablecar: note: {note}", file=sys.stderr)
    print(f"cablecar: {describe(settings)}", file=sys.stderr)
    keys = load_server_keys(settings)
    store = events.open_store(
        settings.database_url, settings.data_path(), pool_size=settings.db_pool_size, signer=keys.signer
    )
    return settings, store, GameQueries(store, InProcessCache(settings.cache_entries), keys=keys.key_set())


def _organiser_name(text: str) -> str:
    name = text.strip()
    if not 1 <= len(name) <= 80:
        raise argparse.ArgumentTypeError("an organiser name has 1 to 80 characters")
    return name


def _organiser_create(args: argparse.Namespace) -> int:
    from service.organisers import OrganiserService

    _, store, _ = _open_runtime(args)
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

    settings, store, queries = _open_runtime(args)
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


def _bots_run(args: argparse.Namespace) -> int:
    import signal

    from service.app import wire_games
    from service.bots.runner import BotRunner
    from service.cache import open_cache

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    settings, store, opened = _open_runtime(args)
    # the shared cache when there is one (Redis): the servers' states, not replays
    queries, commands, _ = wire_games(store, open_cache(settings), keys=opened.keys)
    runner = BotRunner(queries, commands, store, think_ms=args.think_ms, move_delay_ms=args.move_delay_ms,
                       interval=args.interval, batch=args.batch)
    try:
        if args.once:
            runner.run_once()
            print(f"made {runner.stats.moves} moves in {runner.stats.claims} games")
            return 0
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: runner.stop())
        print(f"cablecar: bot runner {runner.owner} playing the server's bot seats (Ctrl-C stops)", flush=True)
        runner.run()
        stats = runner.stats
        print(f"cablecar: bot runner {runner.owner} stopped: {stats.moves} moves, {stats.conflicts} conflicts, "
              f"{stats.errors} errors", flush=True)
        return 0
    finally:
        store.close()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``cablecar``."""
    from service.config import declared

    parser = Parser(
        prog="cablecar",
        description="Cable Car game server: serve the API, migrate PostgreSQL, play bots, verify records.",
        epilog="Run `cablecar COMMAND --help` for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.set_defaults(debug=False)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser(
        "serve", help="run the HTTP server (gunicorn)",
        description="Run the HTTP server. Without DATABASE_URL it keeps its data in one folder, "
                    "printed at start (see --data-dir).",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (0.0.0.0: every interface)")
    serve.add_argument("--port", type=int, default=8000, help="TCP port to listen on")
    serve.add_argument("--workers", type=int, default=None,
                       help=f"worker processes (default: $CABLECAR_WORKERS, else {declared('workers').default})")
    serve.add_argument("--threads", type=int, default=None,
                       help="threads per worker on the embedded store "
                            f"(default: $CABLECAR_THREADS, else {declared('threads').default})")
    serve.add_argument("--access-log", action="store_true", help="log every request to standard output")
    _data_dir_option(serve)
    serve.set_defaults(func=_serve)

    mig = sub.add_parser(
        "migrate", help="apply the PostgreSQL schema migrations (as the schema's owner)",
        description="Apply the PostgreSQL schema migrations, connected as the role that owns the database "
                    "(an ordinary role, not a superuser), and grant the server's role (--app-role) exactly "
                    "what it needs. The server never migrates PostgreSQL itself.",
    )
    mig.add_argument("--database-url", default=None, metavar="URL",
                     help="postgresql://OWNER:password@host:5432/db (default: $DATABASE_URL)")
    mig.add_argument("--app-role", default=None, metavar="NAME",
                     help="the role the server connects as: granted reads, and writes to the event log, games "
                          "and idempotency keys only through the owner's functions (run again after each upgrade)")
    mig.set_defaults(func=_migrate)

    ver = sub.add_parser("verify", help="verify an exported game offline (no server, no database)")
    ver.add_argument("file", help="export file (JSON or NDJSON), or - for standard input")
    ver.add_argument("--json", action="store_true", help="print the verdict as JSON")
    ver.add_argument("--keys", default=None, metavar="KEYS.json",
                     help="the server's public keys, saved from GET /v1/keys: check every event's signature "
                          "(without: the verdict says the signatures were not checked)")
    ver.set_defaults(func=_verify)

    org = sub.add_parser("organiser", help="manage tournament organisers")
    org_sub = org.add_subparsers(dest="organiser_command", required=True, metavar="COMMAND")
    org_create = org_sub.add_parser("create", help="create an organiser and print its token (shown once)")
    org_create.add_argument("name", type=_organiser_name, help="the organiser's name (a label)")
    _data_dir_option(org_create)
    org_create.set_defaults(func=_organiser_create)

    hooks = sub.add_parser("webhooks", help="deliver webhooks")
    hooks_sub = hooks.add_subparsers(dest="webhooks_command", required=True, metavar="COMMAND")
    hooks_run = hooks_sub.add_parser(
        "run", help="run a webhook dispatcher in this process (any number may run, on any hosts)"
    )
    hooks_run.add_argument("--once", action="store_true", help="make one pass and exit (e.g. from cron)")
    _data_dir_option(hooks_run)
    hooks_run.set_defaults(func=_webhooks_run)

    keys = sub.add_parser("keys", help="the Ed25519 keys the server signs its records with")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True, metavar="COMMAND")
    keys_gen = keys_sub.add_parser(
        "generate", help="make a signing key file (mode 0600) unless one exists",
        description="Make the signing key file CABLECAR_SIGNING_KEY_FILE names (or --key-file), readable by its "
                    "owner only. An existing file is kept.",
    )
    keys_gen.add_argument("--key-file", default=None, metavar="PATH", help="default: $CABLECAR_SIGNING_KEY_FILE")
    keys_gen.set_defaults(func=_keys_generate)
    keys_rot = keys_sub.add_parser(
        "rotate", help="retire the current signing key and make a new one",
        description="Move the current key's public half to the retired keys file (with retired_at) and write a "
                    "new key in its place. Restart every server (all hosts share the two files): records signed "
                    "before still verify, with the retired key.",
    )
    keys_rot.add_argument("--key-file", default=None, metavar="PATH", help="default: $CABLECAR_SIGNING_KEY_FILE")
    keys_rot.add_argument("--retired-file", default=None, metavar="PATH",
                          help="default: $CABLECAR_RETIRED_KEYS_FILE, else retired-keys.json next to the key")
    _data_dir_option(keys_rot)
    keys_rot.set_defaults(func=_keys_rotate)
    keys_show = keys_sub.add_parser("show", help="print the public keys as GET /v1/keys answers")
    keys_show.add_argument("--key-file", default=None, metavar="PATH", help="default: $CABLECAR_SIGNING_KEY_FILE")
    keys_show.add_argument("--retired-file", default=None, metavar="PATH",
                           help="default: $CABLECAR_RETIRED_KEYS_FILE, else retired-keys.json next to the key")
    _data_dir_option(keys_show)
    keys_show.set_defaults(func=_keys_show)
    bots = sub.add_parser("bots", help="play the seats games gave to server-side bots")
    bots_sub = bots.add_subparsers(dest="bots_command", required=True, metavar="COMMAND")
    bots_run = bots_sub.add_parser(
        "run", help="run a bot runner in this process (any number may run, on any hosts)",
        description="Claim the games where a server-side bot must act and play those turns, from each bot "
                    "seat's own view, through the same checks as a person's action.",
    )
    bots_run.add_argument("--think-ms", type=_ms, default=50,
                          help="the search bot's (mcts) budget per move, never past the seat's clock")
    bots_run.add_argument("--move-delay-ms", type=_ms, default=0,
                          help="how long a bot waits before it moves (so people can follow); keep it under "
                               "the games' time controls")
    bots_run.add_argument("--interval", type=float, default=0.1, help="seconds between looks when idle")
    bots_run.add_argument("--batch", type=int, default=8, choices=range(1, 101), metavar="N",
                          help="games claimed per look (1-100)")
    bots_run.add_argument("--verbose", action="store_true", help="log every move")
    bots_run.add_argument("--once", action="store_true", help="play the turns waiting now, then exit")
    _data_dir_option(bots_run)
    bots_run.set_defaults(func=_bots_run)

    add_bot(sub)
    return parser


def _ms(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of milliseconds, not {text!r}") from None
    if not 0 <= value <= 5000:
        raise argparse.ArgumentTypeError(f"must be 0 to 5000 milliseconds, not {value}")
    return value


def explain(error: BaseException, args: argparse.Namespace) -> str:
    """One line saying what went wrong, for an error a user can meet."""
    from events.store import StoreError, StoreUnavailable

    url = getattr(args, "url", None)
    if isinstance(error, ApiProblem):
        return f"the server refused: {error.status} {error.code}: {error.body.get('detail', '')}".rstrip(": ")
    if isinstance(error, urllib.error.URLError):
        reason = getattr(error.reason, "strerror", None) or error.reason
        return f"cannot reach the server at {url}: {reason} (is `cablecar serve` running there? see --url)"
    if isinstance(error, ConnectionError | TimeoutError) and url:
        return f"lost the connection to the server at {url}: {error}"
    if isinstance(error, StoreUnavailable):
        return f"the event store cannot be reached: {error}"
    if isinstance(error, StoreError):
        return f"the event store refused: {error}"
    if isinstance(error, OSError) and error.strerror and error.filename:
        return f"{error.filename}: {error.strerror}"
    return str(error) or type(error).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cablecar`` console script."""
    args = build_parser().parse_args(argv)
    name = " ".join(
        str(part) for part in (args.command, getattr(args, f"{args.command}_command", None)) if part
    )
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print(f"cablecar {name}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        if args.debug:
            raise
        # One line even when a driver's message has several (psycopg adds a hint line).
        print(f"cablecar {name}: error: {' '.join(explain(e, args).split())}", file=sys.stderr)
        return FAILED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
