"""``cablecar keys ...``: the Ed25519 key files the server signs its records with
(generate, rotate, show)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from cablecar.options import USAGE, data_dir_option

if TYPE_CHECKING:
    from datetime import datetime

    from events.integrity.signing import Signer
    from events.records import StoredEvent
    from service.config import Settings


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
    from events.encoding.timestamps import format_timestamp, system_clock
    from events.integrity.signing import Signer
    from service.adapters.signing_keys import key_path, read_key_file, write_key_file

    settings = _key_settings(args)
    if not settings.signing_key_file.strip():
        print("cablecar keys generate: give --key-file PATH (or set CABLECAR_SIGNING_KEY_FILE)", file=sys.stderr)
        return USAGE
    path = key_path(settings)
    if not path.parent.is_dir():
        # (a mistyped folder would otherwise be made silently, the key then sought elsewhere)
        what = "is not a folder" if path.parent.exists() else "does not exist"
        print(f"cablecar keys generate: the folder {path.parent} {what}: make it first "
              f"(mkdir -p {path.parent}), or give another --key-file", file=sys.stderr)
        return USAGE
    made = write_key_file(path, Signer.generate(format_timestamp(system_clock())))
    signer = read_key_file(path)
    print(f"{'made' if made else 'kept the existing'} signing key {signer.key_id} in {path}")
    return 0


def _keys_rotate(args: argparse.Namespace) -> int:
    from service.adapters.signing_keys import (
        ROTATION_GRACE_SECONDS,
        check_grace,
        key_path,
        retired_path,
        rotate,
    )

    settings = _key_settings(args)
    grace = check_grace(ROTATION_GRACE_SECONDS if args.grace is None else args.grace)
    # In the server's own stream, a chain: the old key introduces the new one while it is alive ...
    introduced, new, now, why = _introduce_next_key(settings)
    retired, new = rotate(settings, grace, now, new)
    print(f"retired key {retired.key_id} as of {retired.retired_at} (listed in {retired_path(settings)}); "
          f"new signing key {new.key_id} in {key_path(settings)}")
    # ... then the new key records the old one's retirement
    recorded, why = ((), why) if why is not None else _record_keys(settings)
    events = [*introduced, *recorded]
    if events and why is None:
        print("recorded in the server's own stream (_server): " + ", ".join(
            f"seq {e.seq} {e.type} {e.payload.get('key_id')}" for e in events))
    else:
        print(f"cablecar keys rotate: not recorded in the server's own stream ({why}); the next server start "
              "records it, but a server still running with the retired key does not learn of it", file=sys.stderr)
    print(f"Restart every server before {retired.retired_at} to sign with the new key: an event the retired key "
          "signs after that fails verification; records signed before verify with the retired one.", file=sys.stderr)
    return 0


def _introduce_next_key(
    settings: Settings,
) -> tuple[tuple[StoredEvent, ...], Signer | None, datetime | None, str | None]:
    """Make the next key at the store's time and record its ``key_added``,
    signed with the current key: (the events recorded, the next key, the
    store's time after them, None), or ((), None, None, why not) when the
    store is not there (an embedded store not made yet) or cannot be reached."""
    from events.encoding.timestamps import format_timestamp, parse_timestamp
    from events.integrity.signing import Signer
    from events.records import StoreError
    from service.adapters.signing_keys import load_server_keys
    from service.bootstrap import open_stores
    from service.location import sqlite_file
    from service.usecases.server_stream import ServerStream

    path = sqlite_file(settings)
    if path is not None and not path.exists():
        return (), None, None, f"there is no store at {path} yet"
    current = load_server_keys(settings)
    try:
        stores = open_stores(settings, current.signer, pool_size=1, read_replica=False)
    except (StoreError, OSError) as e:
        return (), None, None, str(e)
    clock = stores.deadlines
    try:
        clock.database_time()  # measures this process's estimate of the database's clock, which stamps the events
        new = Signer.generate(format_timestamp(clock.estimated_time()))
        stream = ServerStream(stores.events, stores.log, current.key_set())
        events = stream.record(current, introduce=new.public)
        # the old key retires no earlier than the events it signed: the retirement comes after them
        later = [clock.estimated_time(), *(parse_timestamp(e.recorded_at) for e in events)]
        return events, new, max(later), None
    except StoreError as e:
        return (), None, None, str(e)
    finally:
        stores.close()


def _record_keys(settings: Settings) -> tuple[tuple[StoredEvent, ...], str | None]:
    """Record the keys' lifetimes (the rotation) in the server's own stream,
    signed with the new key: the events appended, or why none could be."""
    from events.records import StoreError
    from service.adapters.signing_keys import load_server_keys
    from service.bootstrap import open_stores
    from service.usecases.server_stream import ServerStream

    signing_keys = load_server_keys(settings)
    try:
        stores = open_stores(settings, signing_keys.signer, pool_size=1, read_replica=False)
    except (StoreError, OSError) as e:
        return (), str(e)
    try:
        return ServerStream(stores.events, stores.log, signing_keys.key_set()).record(signing_keys), None
    except StoreError as e:
        return (), str(e)
    finally:
        stores.close()


def _keys_show(args: argparse.Namespace) -> int:
    import json

    from service.adapters.signing_keys import load_server_keys

    signing_keys = load_server_keys(_key_settings(args))
    print(json.dumps({"keys": [k.to_json() for k in signing_keys.public_keys()]}, indent=2))
    return 0


def add_parser(sub: Any) -> None:
    """Add ``cablecar keys ...`` to the CLI."""
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
                    "new key in its place, retired at once (or after --grace). Restart every server (all hosts share "
                    "the two files) before the key's retired_at: an event it signs later fails verification; "
                    "records signed before still verify, with the retired key. With the server's DATABASE_URL "
                    "(or --data-dir) the rotation is recorded in the server's own stream (_server) at once: the "
                    "new key's key_added signed by the old key, then the old key's key_retired by the new one, "
                    "which the transparency log attests; otherwise the next server start records it.",
    )
    keys_rot.add_argument("--key-file", default=None, metavar="PATH", help="default: $CABLECAR_SIGNING_KEY_FILE")
    keys_rot.add_argument("--retired-file", default=None, metavar="PATH",
                          help="default: $CABLECAR_RETIRED_KEYS_FILE, else retired-keys.json next to the key")
    keys_rot.add_argument("--grace", type=float, default=None, metavar="SECONDS",
                          help="the retired key's retired_at is this far on, while every server restarts "
                               "(default: 0, at once: a key that may have leaked; at most a day)")
    data_dir_option(keys_rot)
    keys_rot.set_defaults(func=_keys_rotate)
    keys_show = keys_sub.add_parser("show", help="print the public keys as GET /v1/keys answers")
    keys_show.add_argument("--key-file", default=None, metavar="PATH", help="default: $CABLECAR_SIGNING_KEY_FILE")
    keys_show.add_argument("--retired-file", default=None, metavar="PATH",
                           help="default: $CABLECAR_RETIRED_KEYS_FILE, else retired-keys.json next to the key")
    data_dir_option(keys_show)
    keys_show.set_defaults(func=_keys_show)
