"""``cablecar quarantine GAME``: move a damaged game's bad tail aside, as the
database owner, so that the game goes on (:mod:`service.usecases.quarantine`)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from cablecar.options import FAILED, USAGE, data_dir_option


def _reason(text: str) -> str:
    reason = " ".join(text.split())
    if not 1 <= len(reason) <= 500 or not reason.isprintable():
        raise argparse.ArgumentTypeError("a reason has 1 to 500 printable characters")
    return reason


def _quarantine(args: argparse.Namespace) -> int:
    from events.records import GameNotFound, StoreError
    from service.adapters.cache import InProcessCache
    from service.adapters.signing_keys import load_server_keys
    from service.bootstrap import open_stores
    from service.config import Settings
    from service.location import describe, redact, sqlite_file, with_data_dir
    from service.usecases.quarantine import QuarantineRefused, quarantine_game
    from service.usecases.queries import GameQueries

    settings = with_data_dir(Settings.from_env(), args.data_dir)
    if args.database_url:
        if not args.database_url.startswith(("postgresql://", "postgres://")):
            print("cablecar quarantine: --database-url takes the owner's postgresql:// URL "
                  "(the embedded store: --data-dir)", file=sys.stderr)
            return USAGE
        settings = dataclasses.replace(settings, database_url=args.database_url)
    path = sqlite_file(settings)
    if path is not None and not path.exists():
        print(f"cablecar quarantine: no store at {path}: pass the server's folder with --data-dir", file=sys.stderr)
        return FAILED
    print(f"cablecar: {describe(settings)}", file=sys.stderr)
    signing_keys = load_server_keys(settings)  # the key the server signs with, from the same configuration
    stores = open_stores(settings, signing_keys.signer, pool_size=1, read_replica=False)
    try:
        queries = GameQueries(stores.events, InProcessCache(16), keys=signing_keys.key_set(), quarantine=stores.quarantine)
        try:
            done = quarantine_game(queries, stores.quarantine, stores.bot_turns, stores.deadlines, signing_keys.signer,
                                   args.game, args.reason)
        except GameNotFound:
            print(f"cablecar quarantine: no game {args.game!r} in this store", file=sys.stderr)
            return FAILED
        except QuarantineRefused as refused:
            print(f"cablecar quarantine: {refused.detail}", file=sys.stderr)
            return FAILED
        except StoreError as e:
            if _permission_denied(e):
                where = redact(settings.database_url or "")
                print(f"cablecar quarantine: {where}: permission denied: run it as the database owner "
                      "(--database-url OWNER_URL); nothing was moved", file=sys.stderr)
                return FAILED
            raise
    finally:
        stores.close()
    if done.moved is None:
        print(f"game {args.game}: its record is sound ({done.loaded.version} events): nothing to quarantine")
        return 0
    run = done.moved.run
    print(f"game {args.game}: moved {run.count} event(s) from seq {run.from_seq} into quarantined_events "
          f"({run.quarantined_at}); appended events_quarantined as seq {done.moved.version}, listing their "
          f"hashes; the game is {done.loaded.record.status} at version {done.loaded.version}")
    return 0


def _permission_denied(error: BaseException) -> bool:
    cause: Any = error.__cause__
    return type(cause).__name__ == "InsufficientPrivilege"


def add_parser(sub: Any) -> None:
    """Add ``cablecar quarantine`` to the CLI."""
    q = sub.add_parser(
        "quarantine", help="move a damaged game's bad events aside so that it goes on (as the database owner)",
        description="Find the first event of GAME that fails its chain or signature check, move it and every "
                    "later event into the table quarantined_events (kept, never deleted), rewind the game to "
                    "its last good event and append a signed events_quarantined event listing the seq range "
                    "and the hashes moved aside, in one transaction. A sound game is left as it is. An event "
                    "that a published checkpoint of the transparency log holds is never moved: then nothing "
                    "is moved and the command fails naming the checkpoint. PostgreSQL: connect as the "
                    "schema's owner; the server's app role may not do this.",
    )
    q.add_argument("game", help="the game's id")
    q.add_argument("--database-url", default=None, metavar="OWNER_URL",
                   help="postgresql://OWNER:password@host:5432/db (default: $DATABASE_URL; without either, the "
                        "embedded SQLite store of --data-dir)")
    q.add_argument("--reason", type=_reason, default=None,
                   help="why, kept with the events moved (default: which seq failed its check)")
    data_dir_option(q)
    q.set_defaults(func=_quarantine)
