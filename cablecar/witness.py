"""The witness side of the transparency log (issue 35): ``cablecar verify
--checkpoint`` and ``cablecar log checkpoint`` / ``log verify-consistency``.

A witness keeps the checkpoints the server publishes (``GET /v1/log/checkpoint``,
saved as answered).  Later it checks, trusting nobody but the server's public
keys (``GET /v1/keys``, saved):

* a record's **inclusion**: the checkpoint's note carries a valid signature by
  one of the keys (key name = the checkpoint's origin; the signature line's key
  hash tells which key, a retired one included: a checkpoint signed before a
  rotation verifies with the retired key, but only for a tree no larger than
  the one holding that key's ``key_retired`` event: ``retired_tree_size`` in
  the saved keys, :meth:`events.integrity.keyset.KeySet.checkpoint_problem`),
  and the record's last event is a
  leaf of that checkpoint's tree: ``leaf_hash(last event's hash || leaf_salt)``
  (32 + 32 raw bytes) at the inclusion proof's ``leaf_index``, the proof
  leading to the signed root.  The last event's hash commits to every earlier
  one (the hash chain), so a record rewritten after the checkpoint, even
  re-chained and re-signed by the operator, is no longer in it;
* two checkpoints' **consistency**: both signed, of one origin, the newer tree
  extending the older one (RFC 9162 §2.1.4).

Proofs are read from a saved answer (``--proof``) or fetched from the server
(``--server URL``; an export names no server) with ``urllib``, in bounded time
and size (:data:`FETCH_SECONDS`, :data:`FETCH_BYTES`).  Pure checks live in
:mod:`events.integrity.merkle` and :mod:`events.integrity.checkpoint`; this module reads files,
fetches and words the checks as :class:`events.integrity.verdict.Check` lines.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events.integrity import merkle
from events.integrity.checkpoint import Checkpoint, key_hash, parse_note, verify_checkpoint
from events.integrity.keyset import KeySet
from events.integrity.signing import unb64url
from events.integrity.verdict import Check

#: a server's answer must arrive whole within this many seconds ...
FETCH_SECONDS = 10.0
#: ... and be at most this many bytes (a proof of a tree of 2**64 leaves is under 3 KiB)
FETCH_BYTES = 256 * 1024


class WitnessError(Exception):
    """Input that cannot be checked (a file that is no checkpoint, a server that
    cannot be reached): one line for the user, nothing written."""


class Refused(WitnessError):
    """The server answered 404 or 409: it has no such proof (the check fails)."""


def read_json(path: str, what: str) -> dict[str, Any]:
    """The JSON object saved in ``path``; WitnessError naming ``what`` otherwise."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise WitnessError(f"{what} {path}: {getattr(e, 'strerror', None) or e}") from None
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise WitnessError(f"{what} {path}: not JSON ({e})") from None
    if not isinstance(doc, dict):
        raise WitnessError(f"{what} {path}: not a JSON object")
    return doc


def _size(doc: Mapping[str, Any], field: str, what: str) -> int:
    value = doc.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise WitnessError(f"{what}: {field} must be a whole number (0 or more), got {value!r}")
    return value


def proof_hashes(doc: Mapping[str, Any], what: str) -> list[bytes]:
    items = doc.get("proof")
    if not isinstance(items, list):
        raise WitnessError(f"{what}: proof must be a list of base64 hashes")
    hashes = [_b64_hash(item) for item in items]
    bad = [i for i, h in enumerate(hashes) if h is None]
    if bad:
        raise WitnessError(f"{what}: proof[{bad[0]}] is not a base64 SHA-256 hash")
    return [h for h in hashes if h is not None]


def _b64_hash(text: object) -> bytes | None:
    """The 32 bytes of a base64 SHA-256 hash, None if ``text`` is not one."""
    try:
        raw = base64.b64decode(text, validate=True) if isinstance(text, str) else b""
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == merkle.HASH_BYTES else None


@dataclass(frozen=True)
class InclusionProof:
    """A saved or fetched ``GET /v1/games/{id}/inclusion`` answer."""

    tree_size: int
    leaf_index: int
    seq: int
    proof: list[bytes]

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], source: str) -> InclusionProof:
        what = f"inclusion proof {source}"
        if "leaf_index" not in doc or "seq" not in doc:
            raise WitnessError(f"{what}: not a GET /v1/games/{{id}}/inclusion answer "
                               '({"tree_size", "leaf_index", "seq", "proof"})')
        return cls(_size(doc, "tree_size", what), _size(doc, "leaf_index", what), _size(doc, "seq", what),
                   proof_hashes(doc, what))


@dataclass(frozen=True)
class SavedCheckpoint:
    """A saved ``GET /v1/log/checkpoint`` answer, its fields not yet trusted."""

    origin: str
    tree_size: int
    root_hash: bytes
    note: str
    source: str

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], source: str) -> SavedCheckpoint:
        """WitnessError unless ``doc`` has the shape of a checkpoint answer."""
        what = f"checkpoint {source}"
        origin, note, root = doc.get("origin"), doc.get("note"), doc.get("root_hash")
        if not isinstance(origin, str) or not origin or not isinstance(note, str) or not isinstance(root, str):
            raise WitnessError(f"{what}: not a saved GET /v1/log/checkpoint answer "
                               '({"origin", "tree_size", "root_hash", "note"})')
        raw = _b64_hash(root)
        if raw is None:
            raise WitnessError(f"{what}: root_hash is not a base64 SHA-256 hash")
        return cls(origin, _size(doc, "tree_size", what), raw, note, source)

    def signed(self, keys: KeySet | None) -> tuple[Checkpoint, str]:
        """The checkpoint its note states and who vouches for it (``signed by ...``
        or ``signature NOT CHECKED``, without keys); ValueError when the note
        is malformed, disagrees with the saved fields, or (with keys) carries
        no valid signature by one of them under the origin's name."""
        if keys is None:
            stated = Checkpoint.parse(parse_note(self.note)[0])
            how = "signature NOT CHECKED (no --keys)"
        else:
            stated, key_id = _verify_note(self.note, self.origin, keys)
            how = f"signed by {self.origin} with key {key_id}"
        if stated.origin != self.origin:
            raise ValueError(f"its note names origin {stated.origin!r}, not {self.origin!r}")
        if (stated.size, stated.root_hash) != (self.tree_size, self.root_hash):
            raise ValueError("its tree_size or root_hash is not what its note states")
        return stated, how


def _verify_note(note: str, origin: str, keys: KeySet) -> tuple[Checkpoint, str]:
    """The checkpoint of ``note`` and the id of the key whose signature holds."""
    _, signatures = parse_note(note)
    by_hash = {}
    for k in keys.keys:
        raw = unb64url(k.public_key)
        by_hash[key_hash(origin, raw)] = (k.key_id, raw)
    signers = [by_hash[s.key_hash] for s in signatures if s.name == origin and s.key_hash in by_hash]
    if not signers:
        raise ValueError(f"its note is not signed by any of the {len(keys.keys)} keys given under the name {origin}")
    refusals = []
    for key_id, raw in signers:
        try:
            checkpoint = verify_checkpoint(note, origin, raw)
        except ValueError as e:
            refusals.append(f"its note does not verify with key {key_id}: {e}")
            continue
        retired = keys.checkpoint_problem(key_id, checkpoint.size)  # checkpoints carry no time: the log's size
        if retired is None:
            return checkpoint, key_id
        refusals.append(f"its note is signed by a retired key: {retired}")
    raise ValueError("; ".join(refusals))


def fetch_json(url: str) -> dict[str, Any]:
    """``GET url`` as a JSON object, read within :data:`FETCH_SECONDS` and
    :data:`FETCH_BYTES`; :class:`Refused` on 404 and 409, WitnessError on
    anything else that is not a JSON object with status 200."""
    deadline = time.monotonic() + FETCH_SECONDS
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=FETCH_SECONDS) as resp:
            body = _read_bounded(resp, deadline, url)
    except urllib.error.HTTPError as e:
        try:
            problem = json.loads(_read_bounded(e, deadline, url))
        except (ValueError, WitnessError):
            problem = {}
        problem = problem if isinstance(problem, dict) else {}
        words = " ".join(str(x) for x in (e.code, problem.get("code", ""), problem.get("detail", "")) if x)
        raise (Refused if e.code in (404, 409) else WitnessError)(f"{url} answered {words}") from None
    except urllib.error.URLError as e:
        reason = getattr(e.reason, "strerror", None) or e.reason
        raise WitnessError(f"cannot reach {url}: {reason}") from None
    except (TimeoutError, OSError) as e:
        raise WitnessError(f"cannot read {url}: {e}") from None
    try:
        doc = json.loads(body)
    except ValueError:
        raise WitnessError(f"{url} did not answer JSON") from None
    if not isinstance(doc, dict):
        raise WitnessError(f"{url} did not answer a JSON object")
    return doc


def _read_bounded(resp: Any, deadline: float, url: str) -> bytes:
    chunks, total = [], 0
    while chunk := resp.read(16 * 1024):
        total += len(chunk)
        if total > FETCH_BYTES:
            raise WitnessError(f"{url} answered more than {FETCH_BYTES} bytes")
        if time.monotonic() > deadline:
            raise WitnessError(f"{url} did not answer within {FETCH_SECONDS:g} s")
        chunks.append(chunk)
    return b"".join(chunks)


def server_url(base: str, path: str) -> str:
    """``base`` (http or https, no query) joined with ``path``; WitnessError otherwise."""
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise WitnessError(f"--server {base!r}: give the server's base URL, e.g. https://games.example.org")
    return base.rstrip("/") + path


def record_leaf(export: Mapping[str, Any]) -> tuple[int, bytes]:
    """The record's last event's seq and its leaf hash; ValueError saying why
    the record has none (no leaf_salt: not finished or from before the log)."""
    salt = export.get("leaf_salt")
    if salt is None:
        raise ValueError("the record has no leaf_salt: it is not a finished game's export, or was exported "
                         "before the server kept a transparency log")
    events = export.get("events")
    last = events[-1] if isinstance(events, list) and events else None
    if not isinstance(last, dict):
        raise ValueError("the record has no events")
    seq, digest = last.get("seq"), last.get("hash")
    try:
        data = bytes.fromhex(str(digest)) + bytes.fromhex(str(salt))
    except ValueError:
        data = b""
    if len(data) != 2 * merkle.HASH_BYTES or not isinstance(seq, int):
        raise ValueError("the record's leaf_salt or its last event's seq or hash is malformed")
    return seq, merkle.leaf_hash(data)


def inclusion_check(export: Mapping[str, Any], checkpoint: Checkpoint, proof: InclusionProof) -> Check:
    """The ``inclusion`` check of a record in a checkpoint (already verified)."""
    try:
        seq, leaf = record_leaf(export)
    except ValueError as e:
        return Check("inclusion", False, str(e))
    if proof.tree_size != checkpoint.size:
        return Check("inclusion", False, f"the proof is for a tree of {proof.tree_size} leaves, "
                                         f"the checkpoint's has {checkpoint.size}")
    if proof.seq != seq:
        return Check("inclusion", False, f"the proof is for event seq {proof.seq}, the record ends at seq {seq}")
    if not merkle.verify_inclusion(leaf, proof.leaf_index, proof.tree_size, proof.proof, checkpoint.root_hash):
        return Check("inclusion", False, f"the record's last event (seq {seq}) is not leaf {proof.leaf_index} "
                                         f"of the checkpoint's tree of {checkpoint.size} leaves: the record "
                                         "is not the one the log held")
    return Check("inclusion", True, f"last event (seq {seq}) is leaf {proof.leaf_index} of the tree of "
                                    f"{checkpoint.size} leaves")


@dataclass(frozen=True)
class Witness:
    """What ``cablecar verify --checkpoint`` was given, read and checked for shape."""

    checkpoint: SavedCheckpoint
    keys: KeySet
    proof: InclusionProof | None
    server: str | None

    def check(self, export: Mapping[str, Any]) -> Check:
        """The ``inclusion`` line; WitnessError when the proof cannot be fetched."""
        try:
            cp, how = self.checkpoint.signed(self.keys)
        except ValueError as e:
            return Check("inclusion", False, f"checkpoint {self.checkpoint.source}: {e}")
        proof = self.proof
        if proof is None:
            game = export.get("game")
            game_id = str(game.get("id")) if isinstance(game, dict) else ""
            url = server_url(str(self.server), f"/v1/games/{urllib.parse.quote(game_id, safe='')}"
                                               f"/inclusion?tree_size={cp.size}")
            try:
                proof = InclusionProof.from_json(fetch_json(url), url)
            except Refused as e:
                return Check("inclusion", False, f"the server has no proof that the record is in the tree of "
                                                 f"{cp.size} leaves: {e}")
        result = inclusion_check(export, cp, proof)
        return Check(result.name, result.ok, f"{result.detail} (checkpoint {cp.origin}, {how})"
                     if result.ok else result.detail)


def prepare(keys: KeySet | None, checkpoint: str | None, proof: str | None, server: str | None) -> Witness | None:
    """The :class:`Witness` of ``verify``'s options (None without --checkpoint);
    WitnessError when they do not go together or a file is unusable."""
    if checkpoint is None:
        if proof is not None or server is not None:
            raise WitnessError("--proof and --server give the inclusion proof for --checkpoint CP.json")
        return None
    if keys is None:
        raise WitnessError("--checkpoint needs --keys KEYS.json (the server's keys, saved from GET /v1/keys) "
                           "to check the checkpoint's signature")
    if (proof is None) == (server is None):
        raise WitnessError("--checkpoint needs the record's inclusion proof: --proof PROOF.json (saved from "
                           "GET /v1/games/{id}/inclusion?tree_size=N) or --server URL, not both")
    saved = SavedCheckpoint.from_json(read_json(checkpoint, "--checkpoint"), checkpoint)
    given = None if proof is None else InclusionProof.from_json(read_json(proof, "--proof"), proof)
    if server is not None:
        server_url(server, "")
    return Witness(saved, keys, given, server)
