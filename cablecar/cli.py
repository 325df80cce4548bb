"""The ``cablecar`` command: serve, migrate, bot, verify, keys, log, organiser, webhooks, quarantine.

Every failure a user can cause or meet (a server that is down, a refused
request, an unreachable database, a taken port, a file that is no export) is
one line on standard error and a non-zero exit code; ``--debug`` shows the
full traceback instead.  Each subcommand declares its own options; the
groups live beside their code: ``keys`` in :mod:`cablecar.keys`, ``organiser``,
``webhooks`` and ``bots`` in :mod:`cablecar.processes`, ``quarantine`` in
:mod:`cablecar.quarantine`, ``log`` and ``verify --checkpoint`` (the transparency
log's witness) in :mod:`cablecar.tlog` and :mod:`cablecar.witness`, ``bot`` (the
reference client) in :mod:`bots.cli`.

This package is the top layer: it starts everything (the server, the bot
runners, the dispatchers), so it may import every layer below it
(``bots`` → ``service`` → ``events`` → ``domain``) and none imports it.
"""

from __future__ import annotations

import argparse
import sys
import urllib.error
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from bots.cli import add_parser as add_bot
from bots.client import ApiProblem
from cablecar.keys import add_parser as add_keys
from cablecar.options import FAILED, USAGE, data_dir_option, mark
from cablecar.processes import add_parser as add_processes
from cablecar.quarantine import add_parser as add_quarantine
from cablecar.supervise import add_parser as add_supervise
from cablecar.tlog import add_parser as add_log

if TYPE_CHECKING:
    from events.integrity.keyset import KeySet
    from events.integrity.verdict import Verdict
    from service.usecases.exportfile import ExportDocument


def version() -> str:
    """The installed package's version."""
    try:
        return metadata.version("cablecar")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        from service.api.routes.meta import SERVICE_VERSION

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
        self._given: list[str] = []

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """argparse's error, but an option nobody knows is named first: argparse
        sets unknown options aside and would only say that COMMAND is missing
        (``cablecar --frobnicate``)."""
        if message.startswith("the following arguments are required"):
            unknown = [a for a in self._given if a.startswith("-") and a != "-" and not self._knows(a)]
            if unknown:
                name = unknown[0].split("=", 1)[0]
                self.exit(USAGE, f"{self.prog}: error: unknown option {name} (see `{self.prog} --help`)\n")
        super().error(message)

    def _knows(self, option: str) -> bool:
        name = option.split("=", 1)[0]
        return any(known == name or (name.startswith("--") and known.startswith(name))  # (abbreviated)
                   for known in self._option_string_actions)


def _serve(args: argparse.Namespace) -> int:
    from cablecar.serving import serve

    return serve(args)


def _migrate(args: argparse.Namespace) -> int:
    from events.factory import migrate
    from service.adapters.secret_key import ServerSecrets
    from service.config import Settings
    from service.location import redact

    settings = Settings.from_env()
    url = args.database_url or settings.database_url
    if not url:
        print("cablecar migrate: set DATABASE_URL (or --database-url) to a PostgreSQL URL; "
              "the embedded SQLite store migrates itself when opened", file=sys.stderr)
        return USAGE
    # the server's secret converts, once, what was stored before keyed token hashes, sealed webhook
    # secrets and MAC'd deliveries (events/migrations/keying.py)
    keying = ServerSecrets.from_settings(settings) if settings.secret_key.strip() else None
    where = f" (the SQLite file {Path(url[len('sqlite:///'):]).absolute()})" if url.startswith("sqlite:///") else ""
    print(f"cablecar: migrating {redact(url)}{where}")
    applied = migrate(url, app_role=args.app_role, keying=keying,
                      notice=lambda text: print(f"cablecar migrate: warning: {text}", file=sys.stderr))
    print("applied: " + (", ".join(applied) if applied else "nothing (schema up to date)"))
    if args.app_role:
        print(f"granted role {args.app_role} what the server needs (reads; writes to the log, the games and "
              "the idempotency keys only through the owner's functions)")
    return 0


def _read_record(path: str) -> ExportDocument | None:
    """The export saved in ``path`` (``-``: standard input); None after saying why it is none."""
    from service.usecases.exportfile import NotAnExport, read_export

    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as e:
        print(f"cablecar verify: {path}: {e.strerror or e}", file=sys.stderr)
        return None
    try:
        if b"\0" in data:  # valid UTF-8, but no JSON text holds a NUL
            raise UnicodeError
        text = data.decode("utf-8")
    except UnicodeError:
        print(f"cablecar verify: not a game record: {path} is binary / not UTF-8 text "
              "(an export is JSON or NDJSON)", file=sys.stderr)
        return None
    try:
        return read_export(text)
    except NotAnExport as e:
        print(f"cablecar verify: {path}: {e}", file=sys.stderr)
        return None


def _verify(args: argparse.Namespace) -> int:
    import json

    from events.integrity.verify import verify_export

    document = _read_record(args.file)
    later = None if args.against is None else _read_record(args.against)
    if document is None or (args.against is not None and later is None):
        return USAGE
    if args.allow_unsigned and args.keys is None:
        print("cablecar verify: --allow-unsigned applies to signatures, which only --keys KEYS.json checks",
              file=sys.stderr)
        return USAGE
    keys = None
    if args.keys is not None:
        from events.integrity.keyset import KeySet

        try:
            keys = KeySet.from_json(json.loads(Path(args.keys).read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            print(f"cablecar verify: --keys {args.keys}: {why}", file=sys.stderr)
            return USAGE
    from cablecar.witness import WitnessError, prepare

    try:
        witness = prepare(keys, args.checkpoint, args.proof, args.server)
    except WitnessError as e:
        print(f"cablecar verify: {e}", file=sys.stderr)
        return USAGE
    verdict = verify_export(document.export, keys, allow_unsigned=args.allow_unsigned)
    if later is not None:
        verdict = _against(verdict, document.export, later.export, keys, args)
    if witness is not None:
        from events.integrity.verdict import Check

        # a superseded record is no longer in the log: the later one is, sharing its events before the quarantine
        subject = document.export if verdict.superseded is None or later is None else later.export
        try:
            inclusion = witness.check(subject)
        except WitnessError as e:
            print(f"cablecar verify: {e}", file=sys.stderr)
            return FAILED
        if subject is not document.export:
            inclusion = Check(inclusion.name, inclusion.ok, f"{args.against}: {inclusion.detail}", inclusion.checked)
        verdict = verdict.with_checks(inclusion)
    if args.json:
        print(json.dumps(verdict.to_json(), indent=2))
    else:
        print(f"read {args.file}: {document.summary}")
        for check in verdict.checks:
            print(f"{mark(check)} {check.name:<8} {check.detail}")
        for quarantine in verdict.quarantines:  # each on a line of its own: never a bare VALID (issue 48)
            print(f"QUARANTINE {quarantine.line()}")
        print(f"verdict: game {verdict.game_id} {verdict.conclusion()}")
    return FAILED if verdict.failed else 0


def _against(
    verdict: Verdict, export: dict[str, Any], later: dict[str, Any], keys: KeySet | None, args: argparse.Namespace
) -> Verdict:
    """``verdict`` of the record ``export`` judged against the later record of ``--against``."""
    from events.integrity.supersede import against_later, superseded_verdict
    from events.integrity.verify import parse_events, verify_export

    later_verdict = verify_export(later, keys, allow_unsigned=args.allow_unsigned)
    earlier_events, _ = parse_events(verdict.game_id, export.get("events") or [])
    later_events, _ = parse_events(later_verdict.game_id, later.get("events") or [])
    check, superseded = against_later(earlier_events, later_events, later_verdict, args.against)
    return superseded_verdict(verdict, check, superseded)


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
                       help="threads per worker when it is threaded (chosen with GUNICORN_CMD_ARGS; the default "
                            "gevent workers need none) "
                            f"(default: $CABLECAR_THREADS, else {declared('threads').default})")
    serve.add_argument("--access-log", action="store_true", help="log every request to standard output")
    data_dir_option(serve)
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
    ver.add_argument("--allow-unsigned", action="store_true",
                     help="with --keys: accept unsigned events before the first signed one, for a record "
                          "written before the server signed its events (an unsigned event after a signed one, "
                          "recorded after the oldest key's created_at, or dated before the game's created_at in "
                          "the record's header, still fails)")
    ver.add_argument("--checkpoint", default=None, metavar="CP.json",
                     help="with --keys: a checkpoint of the transparency log saved earlier (GET /v1/log/checkpoint): "
                          "check that it is signed by one of the keys and that the record is in its tree")
    ver.add_argument("--proof", default=None, metavar="PROOF.json",
                     help="with --checkpoint: the record's inclusion proof, saved from "
                          "GET /v1/games/{id}/inclusion?tree_size=N (N: the checkpoint's tree_size)")
    ver.add_argument("--server", default=None, metavar="URL",
                     help="with --checkpoint: fetch the inclusion proof from the record's server "
                          "(e.g. https://games.example.org) instead of --proof")
    ver.add_argument("--against", default=None, metavar="LATER.json",
                     help="a later export of the same game: says whether it continues this record, or its signed "
                          "quarantine moved this record's tail aside (SUPERSEDED at that seq: genuine, later "
                          "rewritten), or the two differ with no quarantine to say why (NOT VALID); with "
                          "--checkpoint, a superseded record's inclusion is checked on the later one")
    ver.set_defaults(func=_verify)

    add_keys(sub)
    add_log(sub)
    add_processes(sub)
    add_supervise(sub)
    add_quarantine(sub)
    add_bot(sub)
    return parser


def explain(error: BaseException, args: argparse.Namespace) -> str:
    """One line saying what went wrong, for an error a user can meet."""
    from events.records import StoreError, StoreUnavailable

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
