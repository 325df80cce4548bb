"""The server's own stream (``_server``, :mod:`events.integrity.lifetimes`): its
signing keys' lifetimes recorded as events, so that the transparency log
attests them, and read back for ``GET /v1/keys`` and the log's publisher.

* :meth:`ServerStream.record` appends what the stream does not say yet of the
  keys the server is configured with: a ``key_added`` for its current key, a
  ``key_added`` and ``key_retired`` for each retired one (the log's publisher
  calls it when the server starts, ``cablecar keys rotate`` when it retires a
  key).  Several processes starting at once are safe: one append wins, the
  others read again and find nothing left to write.
* :meth:`ServerStream.public_keys` is ``GET /v1/keys``: the configured keys,
  each naming the seqs of its events and, once the log holds its
  ``key_retired``, the size of the tree whose last leaf that is
  (``retired_tree_size``: a checkpoint the key signs of a larger tree is not
  the log's).
* :meth:`ServerStream.retirement` tells the publisher whether its key is
  retired (it then signs no tree beyond that leaf).

Only the events whose signature holds against the server's keys are read: a
row written with a database login alone names no key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from events.integrity.keyset import KeySet
from events.integrity.lifetimes import (
    KEY_RETIRED,
    SERVER_LEAF_SALT,
    SERVER_STATUS,
    SERVER_STREAM,
    SERVER_TYPE,
    KeyLifetime,
    key_added,
    lifetimes,
    missing_events,
    with_seqs,
)
from events.integrity.signing import PublicKey
from events.recorders.event_log import EventStore
from events.recorders.transparency_log import TransparencyLog
from events.records import GameExists, GameNotFound, StaleVersion, StoredEvent, StoreError
from service.adapters.signing_keys import ServerKeys

#: appends tried before giving up when other processes keep appending first
ATTEMPTS = 5


class ServerStream:
    """The ``_server`` stream on one store (see the module docs); ``keys``
    decide which of its events are genuine."""

    def __init__(self, events: EventStore, log: TransparencyLog, keys: KeySet) -> None:
        self.events = events
        self.log = log
        self.keys = keys

    def stored(self) -> list[StoredEvent]:
        """The stream's events (none before its first)."""
        try:
            return self.events.load(SERVER_STREAM)
        except GameNotFound:
            return []

    def lifetimes(self, events: Sequence[StoredEvent] | None = None) -> dict[str, KeyLifetime]:
        """The keys the stream names (its genuine events only), by id."""
        return lifetimes(self.stored() if events is None else events, self.keys)

    def record(self, signing_keys: ServerKeys, introduce: PublicKey | None = None) -> tuple[StoredEvent, ...]:
        """Append what the stream does not say yet of ``signing_keys`` (the
        store signs with ``signing_keys.signer``), and the ``key_added`` of the
        key to ``introduce`` (a rotation's next key); the events appended."""
        for _ in range(ATTEMPTS):
            events = self.stored()
            named = self.lifetimes(events)
            missing = missing_events(named, signing_keys.signer.public, signing_keys.retired)
            if introduce is not None and introduce.key_id not in named:
                missing.append(key_added(introduce))
            if not missing:
                return ()
            try:
                if not events:
                    return self.events.create_game(SERVER_STREAM, SERVER_TYPE, {"leaf_salt": SERVER_LEAF_SALT},
                                                   missing, SERVER_STATUS)
                return self.events.append(SERVER_STREAM, events[-1].seq, missing).events
            except (GameExists, StaleVersion):
                continue  # another process appended first: read again
        raise StoreError(f"the server's stream {SERVER_STREAM} kept changing: its keys were not recorded")

    def public_keys(self, signing_keys: ServerKeys) -> list[PublicKey]:
        """``GET /v1/keys``: every configured key, the current one first, with
        the seqs of its events and its ``retired_tree_size`` where the log holds them."""
        named = self.lifetimes()
        listed = []
        for key in signing_keys.public_keys():
            key = with_seqs(key, named)
            if key.retired_seq is not None:
                leaf = self.log.game_leaf(SERVER_STREAM, key.retired_seq)
                if leaf is not None:
                    key = dataclasses.replace(key, retired_tree_size=leaf.leaf_index + 1)
            listed.append(key)
        return listed

    def retirement(self, key_id: str) -> StoredEvent | None:
        """The genuine ``key_retired`` event of ``key_id``, if the stream has one."""
        events = self.stored()
        lifetime = self.lifetimes(events).get(key_id)
        if lifetime is None or lifetime.retired_seq is None:
            return None
        return next((e for e in events if e.seq == lifetime.retired_seq and e.type == KEY_RETIRED), None)
