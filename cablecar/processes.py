"""The ``cablecar`` commands that work on the configured store beside the
server: ``organiser create``, and the long-running ``webhooks run`` and
``bots run`` processes (any number of each, on any hosts)."""

from __future__ import annotations

import argparse
import logging
import secrets
import sys
from typing import TYPE_CHECKING, Any

from cablecar.options import data_dir_option

if TYPE_CHECKING:
    from events import Stores
    from service.adapters.secret_key import ServerSecrets
    from service.adapters.tokens import TokenHasher
    from service.config import Settings
    from service.usecases.queries import GameQueries


def _open_runtime(args: argparse.Namespace) -> tuple[Settings, Stores, GameQueries]:
    """The configured store (said where, first) and the game queries on an in-process cache."""
    from service.adapters.cache import InProcessCache
    from service.adapters.signing_keys import load_server_keys
    from service.bootstrap import open_stores
    from service.config import Settings
    from service.location import describe, new_store_notes, with_data_dir
    from service.usecases.queries import GameQueries

    settings = with_data_dir(Settings.from_env(), args.data_dir)
    for note in new_store_notes(settings):
        print(f"cablecar: note: {note}", file=sys.stderr)
    print(f"cablecar: {describe(settings)}", file=sys.stderr)
    signing_keys = load_server_keys(settings)
    # only the server's own secret may convert what was stored before (events/migrations/keying.py)
    stores = open_stores(settings, signing_keys.signer, configured_secrets(settings), read_replica=False)
    queries = GameQueries(stores.events, InProcessCache(settings.cache_entries), keys=signing_keys.key_set(),
                          quarantine=stores.quarantine)
    return settings, stores, queries


def configured_secrets(settings: Settings) -> ServerSecrets | None:
    """What the server's secret makes (the same secret as the server's), or None when no secret is
    configured (a process that checks and makes no tokens and sends no webhook can run without)."""
    from service.adapters.secret_key import MissingSecretKey, ServerSecrets

    try:
        return ServerSecrets.from_settings(settings)
    except MissingSecretKey:
        return None


def configured_hasher(settings: Settings) -> TokenHasher | None:
    """The server's keyed token hashes, or None when no secret is configured."""
    found = configured_secrets(settings)
    return None if found is None else found.tokens


def _organiser_name(text: str) -> str:
    name = text.strip()
    if not 1 <= len(name) <= 80:
        raise argparse.ArgumentTypeError("an organiser name has 1 to 80 characters")
    return name


def _organiser_create(args: argparse.Namespace) -> int:
    from service.adapters.secret_key import token_key
    from service.adapters.tokens import TokenHasher
    from service.usecases.organisers import OrganiserService

    settings, stores, _ = _open_runtime(args)
    try:
        # the organiser's token hash is keyed with the server's secret: MissingSecretKey says how to set it
        created = OrganiserService(stores.tournaments, stores.deliveries).create(args.name,
                                                                                 TokenHasher(token_key(settings)))
    finally:
        stores.close()
    print(f"organiser {created.record.organiser_id} ({created.record.name})")
    print(f"token: {created.token}")
    print("The token is shown only now; the server keeps only its hash.", file=sys.stderr)
    return 0


def _webhooks_run(args: argparse.Namespace) -> int:
    import signal
    import threading

    from service.adapters.secret_key import ServerSecrets
    from service.adapters.signing_keys import load_server_keys
    from service.adapters.webhooks.policy import DispatchPolicy
    from service.usecases.checkpoint_notes import CheckpointNotes, VerifiedLog
    from service.usecases.webhook_deliveries import WebhookDispatcher

    settings, stores, queries = _open_runtime(args)
    policy = DispatchPolicy.from_settings(settings)
    checkpoints = VerifiedLog(stores.log, CheckpointNotes(load_server_keys(settings).public_keys()))  # the server's only
    try:
        # the secrets are stored sealed and every delivery MAC'd: the server's secret opens and checks them
        webhook_keys = ServerSecrets.from_settings(settings).webhooks
    except BaseException:
        stores.close()
        raise
    dispatcher = WebhookDispatcher(stores.deliveries, stores.tournaments, checkpoints, stores.database, queries,
                                   webhook_keys, policy)
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
        stores.close()


def _bots_run(args: argparse.Namespace) -> int:
    import signal

    from bots.runner import BotRunner, machine_slots
    from service.adapters.cache import open_cache
    from service.adapters.tokens import TokenHasher
    from service.bootstrap import wire_games

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    settings, stores, opened = _open_runtime(args)
    # the shared cache when there is one (Redis): the servers' states, not replays
    # A runner checks and makes no tokens: without the server's secret, a key nobody knows (no hash it makes acts).
    hasher = configured_hasher(settings) or TokenHasher(secrets.token_bytes(32))
    queries, commands, _ = wire_games(stores, open_cache(settings), hasher, key_set=opened.keys)
    slots = args.slots or settings.bot_slots or machine_slots()
    runner = BotRunner(queries, commands, stores.bot_turns, stores.deadlines, think_ms=args.think_ms, move_delay_ms=args.move_delay_ms,
                       interval=args.interval, batch=args.batch, slots=slots)
    if not args.once:
        from service.serving.metrics_listener import serve_alone

        serve_alone(settings.metrics_address)  # a runner started on its own: its metrics, if asked for
    try:
        if args.once:
            runner.run_once()
            print(f"made {runner.stats.moves} moves in {runner.stats.claims} games")
            return 0
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: runner.stop())
        print(f"cablecar: bot runner {runner.owner} playing the server's bot seats, {runner.slots} games at once "
              "(Ctrl-C stops)", flush=True)
        runner.run()
        stats = runner.stats
        print(f"cablecar: bot runner {runner.owner} stopped: {stats.moves} moves, {stats.conflicts} conflicts, "
              f"{stats.errors} errors", flush=True)
        return 0
    finally:
        stores.close()


def _ms(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of milliseconds, not {text!r}") from None
    if not 0 <= value <= 5000:
        raise argparse.ArgumentTypeError(f"must be 0 to 5000 milliseconds, not {value}")
    return value


def add_parser(sub: Any) -> None:
    """Add ``cablecar organiser ...``, ``webhooks ...`` and ``bots ...`` to the CLI."""
    org = sub.add_parser("organiser", help="manage tournament organisers")
    org_sub = org.add_subparsers(dest="organiser_command", required=True, metavar="COMMAND")
    org_create = org_sub.add_parser("create", help="create an organiser and print its token (shown once)")
    org_create.add_argument("name", type=_organiser_name, help="the organiser's name (a label)")
    data_dir_option(org_create)
    org_create.set_defaults(func=_organiser_create)

    hooks = sub.add_parser("webhooks", help="deliver webhooks")
    hooks_sub = hooks.add_subparsers(dest="webhooks_command", required=True, metavar="COMMAND")
    hooks_run = hooks_sub.add_parser(
        "run", help="run a webhook dispatcher in this process (any number may run, on any hosts)"
    )
    hooks_run.add_argument("--once", action="store_true", help="make one pass and exit (e.g. from cron)")
    data_dir_option(hooks_run)
    hooks_run.set_defaults(func=_webhooks_run)
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
    bots_run.add_argument("--slots", type=int, default=0, choices=range(0, 33), metavar="N",
                          help="games played at once (1-32; default: $CABLECAR_BOT_SLOTS, else 4 per CPU core)")
    bots_run.add_argument("--verbose", action="store_true", help="log every move")
    bots_run.add_argument("--once", action="store_true", help="play the turns waiting now, then exit")
    data_dir_option(bots_run)
    bots_run.set_defaults(func=_bots_run)
