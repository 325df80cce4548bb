"""``cablecar log ...``: what a witness of the transparency log runs (issue 35).

``log checkpoint --server URL --out FILE`` saves the latest signed checkpoint
(each round); ``log verify-consistency OLD.json NEW.json`` checks, months
later, that the newer of two kept checkpoints extends the older one: both
notes signed by one of the server's keys (``--keys``), one origin, and the
RFC 9162 consistency proof (``--proof`` or fetched with ``--server``) leading
from the old root to the new one.  A log that rewrote anything between them,
or showed two different trees of one size, fails.  Reading and fetching:
:mod:`cablecar.witness`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cablecar.options import FAILED, USAGE, mark
from cablecar.witness import (
    Refused,
    SavedCheckpoint,
    WitnessError,
    fetch_json,
    proof_hashes,
    read_json,
    server_url,
)
from events.integrity import merkle
from events.integrity.checkpoint import Checkpoint
from events.integrity.keyset import KeySet
from events.integrity.verdict import Check


def _keys(path: str | None) -> KeySet | None:
    if path is None:
        return None
    try:
        return KeySet.from_json(read_json(path, "--keys"))
    except ValueError as e:
        raise WitnessError(f"--keys {path}: {e}") from None


def _checkpoints_check(old: SavedCheckpoint, new: SavedCheckpoint,
                       keys: KeySet | None) -> tuple[Check, Checkpoint | None, Checkpoint | None]:
    """Both notes read (and, with keys, their signatures checked)."""
    stated: list[Checkpoint] = []
    hows: list[str] = []
    for saved in (old, new):
        try:
            cp, how = saved.signed(keys)
        except ValueError as e:
            return Check("checkpoints", False, f"{saved.source}: {e}"), None, None
        stated.append(cp)
        hows.append(how)
    if keys is None:
        return (Check.not_made("checkpoints", "no --keys KEYS.json given: the notes' signatures were not "
                                              "checked (their bodies agree with their fields)"),
                stated[0], stated[1])
    return Check("checkpoints", True, f"{old.source}: {hows[0]}; {new.source}: {hows[1]}"), stated[0], stated[1]


def consistency_checks(old: SavedCheckpoint, new: SavedCheckpoint, keys: KeySet | None,
                       proof: dict[str, Any] | None, server: str | None) -> list[Check]:
    """The check lines of ``log verify-consistency``; WitnessError when a proof
    cannot be fetched or read."""
    first, a, b = _checkpoints_check(old, new, keys)
    checks = [first]
    if a is None or b is None:
        return checks
    if a.origin != b.origin:
        return [*checks, Check("origin", False, f"{old.source} is of {a.origin}, {new.source} of {b.origin}")]
    checks.append(Check("origin", True, f"both checkpoints are of {a.origin}"))
    return [*checks, _consistency(a, b, proof, server)]


def _consistency(a: Checkpoint, b: Checkpoint, proof: dict[str, Any] | None, server: str | None) -> Check:
    sizes = f"from the tree of {a.size} leaves to the tree of {b.size}"
    if a.size > b.size:
        return Check("consistency", False, f"the first checkpoint's tree ({a.size} leaves) is larger than the "
                                           f"second's ({b.size}): give the older checkpoint first")
    if a.size == b.size or a.size == 0:
        same = a.root_hash == b.root_hash if a.size == b.size else a.root_hash == merkle.EMPTY_ROOT
        return (Check("consistency", True, f"{sizes}: the same tree" if a.size else f"{sizes}: an empty start")
                if same else Check("consistency", False, f"two different roots signed for a tree of {a.size} "
                                                         "leaves: the log forked or rewrote itself"))
    if proof is None:
        url = server_url(str(server), f"/v1/log/consistency?first={a.size}&second={b.size}")
        try:
            proof = fetch_json(url)
        except Refused as e:
            return Check("consistency", False, f"the server has no consistency proof {sizes}: {e}")
    if (proof.get("first"), proof.get("second")) != (a.size, b.size):
        return Check("consistency", False, f"the proof is from {proof.get('first')!r} leaves to "
                                           f"{proof.get('second')!r}, not {a.size} to {b.size}")
    hashes = proof_hashes(proof, "consistency proof")
    if not merkle.verify_consistency(a.size, b.size, hashes, a.root_hash, b.root_hash):
        return Check("consistency", False, f"the proof does not lead {sizes}: the newer tree does not extend "
                                           "the older one (a record was rewritten or removed)")
    return Check("consistency", True, f"{sizes}: the newer tree extends the older one")


def _verify_consistency(args: argparse.Namespace) -> int:
    try:
        if (args.proof is None) == (args.server is None):
            raise WitnessError("give the consistency proof: --proof P.json (saved from "
                               "GET /v1/log/consistency?first=N&second=M) or --server URL, not both")
        if args.server is not None:
            server_url(args.server, "")
        keys = _keys(args.keys)
        old = SavedCheckpoint.from_json(read_json(args.old, "checkpoint"), args.old)
        new = SavedCheckpoint.from_json(read_json(args.new, "checkpoint"), args.new)
        proof = None if args.proof is None else read_json(args.proof, "--proof")
    except WitnessError as e:
        print(f"cablecar log verify-consistency: {e}", file=sys.stderr)
        return USAGE
    try:
        checks = consistency_checks(old, new, keys, proof, args.server)
    except WitnessError as e:
        print(f"cablecar log verify-consistency: {e}", file=sys.stderr)
        return FAILED
    for check in checks:
        print(f"{mark(check)} {check.name:<11} {check.detail}")
    failed = any(c.checked and not c.ok for c in checks)
    unchecked = [c.name for c in checks if not c.checked]
    print("verdict: " + (f"{args.new} is NOT CONSISTENT with {args.old}" if failed
                         else f"{args.new} is consistent with {args.old}, NOT VERIFIED: "
                              f"{', '.join(unchecked)} NOT CHECKED" if unchecked
                         else f"{args.new} is CONSISTENT with {args.old}"))
    return FAILED if failed else 0


def _checkpoint(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out is not None else None
    try:
        if out is not None and out.exists():
            raise WitnessError(f"--out {out}: the file exists (a kept checkpoint is never overwritten)")
        keys = _keys(args.keys)
        query = "" if args.tree_size is None else f"?tree_size={args.tree_size}"
        url = server_url(args.server, f"/v1/log/checkpoint{query}")
    except WitnessError as e:
        print(f"cablecar log checkpoint: {e}", file=sys.stderr)
        return USAGE
    try:
        answer = fetch_json(url)
        saved = SavedCheckpoint.from_json(answer, url)
        try:
            cp, how = saved.signed(keys)
        except ValueError as e:
            raise WitnessError(f"the checkpoint {url} answered does not verify: {e}") from None
        text = json.dumps(answer, indent=2, ensure_ascii=False) + "\n"
        if out is None:
            sys.stdout.write(text)
        else:
            with out.open("x", encoding="utf-8") as f:
                f.write(text)
            print(f"saved the checkpoint of {cp.origin}, a tree of {cp.size} leaves ({how}), to {out}")
    except (WitnessError, OSError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(f"cablecar log checkpoint: {why}", file=sys.stderr)
        return FAILED
    return 0


CONSISTENCY_HELP = ("Check two saved checkpoints: their notes signed by one of the server's keys (--keys), one "
                    "origin, and the consistency proof from the older tree to the newer (RFC 9162). Exit code 1 "
                    "when a check fails.")


def add_parser(sub: Any) -> None:
    """Add ``cablecar log ...`` to the CLI."""
    log_sub = sub.add_parser(
        "log", help="the transparency log, as a witness keeps it: save checkpoints, check them",
    ).add_subparsers(dest="log_command", required=True, metavar="COMMAND")
    cp = log_sub.add_parser(
        "checkpoint", help="save the server's latest signed checkpoint (each round)",
        description="Fetch GET /v1/log/checkpoint and save it as answered. Later, `cablecar verify --keys "
                    "KEYS.json --checkpoint FILE GAME.json` proves a record is the one the log held then, and "
                    "`cablecar log verify-consistency` that the log only grew between two saved checkpoints.",
    )
    cp.add_argument("--server", required=True, metavar="URL", help="the server's base URL, e.g. https://games.example.org")
    cp.add_argument("--out", default=None, metavar="FILE",
                    help="save it to FILE, which must not exist yet (default: print it)")
    cp.add_argument("--keys", default=None, metavar="KEYS.json",
                    help="the server's keys (saved GET /v1/keys): refuse a checkpoint none of them signed")
    cp.add_argument("--tree-size", type=int, default=None, metavar="N", help="an earlier checkpoint, of N leaves")
    cp.set_defaults(func=_checkpoint)
    vc = log_sub.add_parser("verify-consistency", help="check that a newer saved checkpoint extends an older one",
                            description=CONSISTENCY_HELP)
    vc.add_argument("old", metavar="OLD.json", help="the older saved checkpoint")
    vc.add_argument("new", metavar="NEW.json", help="the newer saved checkpoint")
    vc.add_argument("--keys", default=None, metavar="KEYS.json",
                    help="the server's public keys (saved GET /v1/keys): check both notes' signatures "
                         "(without: the verdict says they were not checked)")
    vc.add_argument("--proof", default=None, metavar="P.json",
                    help="the consistency proof, saved from GET /v1/log/consistency?first=N&second=M")
    vc.add_argument("--server", default=None, metavar="URL", help="fetch the consistency proof from this server")
    vc.set_defaults(func=_verify_consistency)
