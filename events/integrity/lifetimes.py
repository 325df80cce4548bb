"""The server's own stream: the lifetimes of its signing keys, as events in the log.

Beside the games, the store holds one stream of the server's own, game id
:data:`SERVER_STREAM` (``_server``): hash-chained, signed and a leaf of the
transparency log like any game's events, so that a checkpoint attests it.  It
records each signing key's lifetime:

* ``key_added`` ``{"key_id", "public_key", "created_at"}``: the server signs
  with this key from ``created_at`` on (written when a server first starts
  with a key the stream does not name yet);
* ``key_retired`` ``{"key_id", "public_key", "retired_at"}``: the key signs
  nothing recorded after ``retired_at`` (written by ``cablecar keys rotate``,
  or by the next server start for a retirement the stream does not name).

A key's first ``key_added`` and first ``key_retired`` count; only events
signed by one of the keys the reader trusts, or by a key the stream
introduced with a ``key_added`` signed by a trusted one, are read at all
(:func:`lifetimes`), so a row written past the server (a database login has
no signing key) names no key.  ``cablecar keys rotate`` writes a rotation
as such a chain: the new key's ``key_added`` signed by the old key while it
is alive, then the old key's ``key_retired`` signed by the new one.
The stream is not a game: its row's type is :data:`SERVER_TYPE`, which no
game definition has, listings leave it out, and its leaf salt is public
(:data:`SERVER_LEAF_SALT`: 32 zero bytes), its events being public from the
start.  Pure: reading and appending are the callers'.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from events.integrity.keyset import KeySet
from events.integrity.signing import PublicKey, is_timestamp
from events.records import NewEvent, StoredEvent

#: the game id of the server's own stream
SERVER_STREAM = "_server"
#: its row's game type (no game has it) and status
SERVER_TYPE = "_server"
SERVER_STATUS = "server"
#: the leaf salt of its events in the transparency log (hex): public, its events are
SERVER_LEAF_SALT = "00" * 32
#: its event types
KEY_ADDED = "key_added"
KEY_RETIRED = "key_retired"


@dataclass(frozen=True)
class KeyLifetime:
    """What the stream says of one key: when it was made and retired, and the
    seqs of the events that say so."""

    key_id: str
    public_key: str
    created_at: str | None
    added_seq: int
    retired_at: str | None = None
    retired_seq: int | None = None


def key_added(key: PublicKey) -> NewEvent:
    """The ``key_added`` event of ``key``."""
    return NewEvent(KEY_ADDED, {"key_id": key.key_id, "public_key": key.public_key, "created_at": key.created_at})


def key_retired(key: PublicKey) -> NewEvent:
    """The ``key_retired`` event of ``key`` (retired: its ``retired_at`` is set)."""
    if key.retired_at is None:
        raise ValueError(f"key {key.key_id} is not retired")
    return NewEvent(KEY_RETIRED, {"key_id": key.key_id, "public_key": key.public_key, "retired_at": key.retired_at})


def lifetimes(events: Iterable[StoredEvent], keys: KeySet) -> dict[str, KeyLifetime]:
    """The keys the stream's ``events`` name, by id.  An event counts when
    its signature holds, made while its key was alive, by one of ``keys`` or
    by a key that a counted ``key_added`` signed by another key introduced
    (a rotation's new key is introduced by the old one, so a server still
    holding only the old key learns of its retirement)."""
    named: dict[str, KeyLifetime] = {}
    known = keys
    for event in events:
        if event.type not in (KEY_ADDED, KEY_RETIRED) or known.problem(event) or known.lifetime_problem(event):
            continue
        key_id, public = event.payload.get("key_id"), event.payload.get("public_key")
        stamp = event.payload.get("created_at" if event.type == KEY_ADDED else "retired_at")
        try:
            key = PublicKey.from_json({"key_id": key_id, "public_key": public,
                                       "created_at": stamp if event.type == KEY_ADDED else None})
        except ValueError:
            continue
        if stamp is not None and not is_timestamp(stamp):
            continue
        at = stamp if isinstance(stamp, str) else None
        if event.type == KEY_ADDED and key.key_id not in named:
            named[key.key_id] = KeyLifetime(key.key_id, key.public_key, at, event.seq)
            if event.key_id != key.key_id and all(k.key_id != key.key_id for k in known.keys):
                known = KeySet([*known.keys, key])
        elif event.type == KEY_RETIRED and key.key_id in named and named[key.key_id].retired_seq is None:
            named[key.key_id] = replace(named[key.key_id], retired_at=at, retired_seq=event.seq)
    return named


def missing_events(named: Mapping[str, KeyLifetime], current: PublicKey,
                   retired: Sequence[PublicKey]) -> list[NewEvent]:
    """What to append so that the stream names ``current`` and every ``retired``
    key with its retirement: the retired keys first, oldest first."""
    wanted: list[NewEvent] = []
    for key in sorted(retired, key=lambda k: (k.created_at or "", k.key_id)):
        if key.key_id == current.key_id:
            continue
        if key.key_id not in named:
            wanted.append(key_added(key))
        if key.retired_at is not None and (key.key_id not in named or named[key.key_id].retired_seq is None):
            wanted.append(key_retired(key))
    if current.key_id not in named:
        wanted.append(key_added(current))
    return wanted


def with_seqs(key: PublicKey, named: Mapping[str, KeyLifetime]) -> PublicKey:
    """``key`` naming the seqs of its ``key_added`` and ``key_retired`` events (None where there is none)."""
    lifetime = named.get(key.key_id)
    if lifetime is None:
        return key
    return replace(key, added_seq=lifetime.added_seq, retired_seq=lifetime.retired_seq)

