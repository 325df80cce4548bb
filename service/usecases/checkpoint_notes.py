"""Checkpoints a client may be served (issue 48): rows of the transparency log
whose note verifies under the server's keys and is the checkpoint of the row's
own tree.

A database login, or the owner's hand, can put a row in ``log_checkpoints``
that the server never signed: junk that is not a note, a note signed by
another key, the server's note beside another root.  The store cannot tell (it
holds no keys); the service can, so every read that hands a checkpoint out, to
``GET /v1/log/checkpoint`` and its proofs, to ``log.checkpoint`` webhooks and
to ``/v1/health``'s age, goes through :class:`VerifiedLog`: a
:class:`~events.recorders.transparency_log.TransparencyLog` that passes only
such checkpoints and skips the others (the latest one that verifies is the
latest one served, never an error).  Each row is checked once per process (an
Ed25519 check is ~0.1 ms); a row that fails is said once in the log and
counted (``cablecar_log_bad_checkpoints``).  Every key the server signs or
signed with counts: a checkpoint signed before a key rotation stays served.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from events.integrity.checkpoint import Checkpoint, parse_note, verify_note
from events.integrity.signing import PublicKey, unb64url
from events.recorders.transparency_log import (
    LogEvent,
    LogHead,
    LogLeaf,
    Node,
    Publication,
    PublishedCheckpoint,
    TransparencyLog,
)
from service.adapters import prometheus

log = logging.getLogger("cablecar.transparency")

#: rows remembered as checked (bounded: a cleared memo only costs checks again)
MEMO = 65536
#: rows read at a time while looking for the latest checkpoint that verifies
_PAGE = 16


class CheckpointNotes:
    """Whether a checkpoint row is the server's: its note verifies under one
    of ``keys`` (the key name being the note's origin) and its text is the
    checkpoint of the row's size and root."""

    def __init__(self, keys: Iterable[PublicKey]) -> None:
        self._keys = tuple(unb64url(k.public_key) for k in keys)
        self._memo: dict[tuple[int, bytes, str], bool] = {}

    def genuine(self, cp: PublishedCheckpoint) -> bool:
        """Whether ``cp`` may be served (see the class docs); a row that may not is reported once."""
        memo_key = (cp.tree_size, cp.root_hash, cp.note)
        found = self._memo.get(memo_key)
        if found is None:
            problem = self.problem(cp)
            found = problem is None
            if problem is not None:
                prometheus.LOG_BAD_CHECKPOINTS.inc()
                log.warning("transparency log: the checkpoint row of tree size %d is not served: %s (a row "
                            "written around the publisher)", cp.tree_size, problem)
            if len(self._memo) >= MEMO:
                self._memo.clear()
            self._memo[memo_key] = found
        return found

    def problem(self, cp: PublishedCheckpoint) -> str | None:
        """Why ``cp`` is not the server's (None: it is)."""
        try:
            text, _ = parse_note(cp.note)
            body = Checkpoint.parse(text)
        except ValueError as e:
            return f"its note is not a signed checkpoint ({e})"
        if (body.size, body.root_hash) != (cp.tree_size, cp.root_hash):
            return "its note is the checkpoint of another tree than the row's"
        for public in self._keys:
            try:
                verify_note(cp.note, body.origin, public)
            except ValueError:
                continue
            return None
        return "its note is not signed by any of the server's keys"


class VerifiedLog(TransparencyLog):
    """A transparency log whose checkpoint reads pass only the server's
    checkpoints (see the module docs); everything else is the store's."""

    def __init__(self, log: TransparencyLog, notes: CheckpointNotes) -> None:
        self.log = log
        self.notes = notes

    def log_events(self, after_position: int, limit: int) -> list[LogEvent]:
        return self.log.log_events(after_position, limit)

    def head(self) -> LogHead:
        return self.log.head()

    def node_hashes(self, nodes: Sequence[Node]) -> dict[Node, bytes]:
        return self.log.node_hashes(nodes)

    def publish_checkpoint(
        self, previous_size: int, leaves: Sequence[LogLeaf], nodes: Sequence[tuple[int, int, bytes]],
        checkpoint: PublishedCheckpoint,
    ) -> Publication:
        return self.log.publish_checkpoint(previous_size, leaves, nodes, checkpoint)

    def checkpoint(self, tree_size: int | None = None) -> PublishedCheckpoint | None:
        """The checkpoint of ``tree_size`` if it is the server's; None: the latest that is."""
        if tree_size is not None:
            found = self.log.checkpoint(tree_size)
            return found if found is not None and self.notes.genuine(found) else None
        latest = self.checkpoints_before(None, 1)
        return latest[0] if latest else None

    def checkpoints_after(self, tree_size: int, limit: int) -> list[PublishedCheckpoint]:
        found: list[PublishedCheckpoint] = []
        while len(found) < limit:
            rows = self.log.checkpoints_after(tree_size, limit)
            found += [cp for cp in rows if self.notes.genuine(cp)]
            if len(rows) < limit:
                break
            tree_size = rows[-1].tree_size
        return found[:limit]

    def checkpoints_before(self, tree_size: int | None, limit: int) -> list[PublishedCheckpoint]:
        found: list[PublishedCheckpoint] = []
        page = min(limit, _PAGE)
        while len(found) < limit:
            rows = self.log.checkpoints_before(tree_size, page)
            found += [cp for cp in rows if self.notes.genuine(cp)]
            if len(rows) < page:
                break
            tree_size, page = rows[-1].tree_size, min(4 * page, 1000)
        return found[:limit]

    def game_leaf(self, game_id: str, seq: int) -> LogLeaf | None:
        return self.log.game_leaf(game_id, seq)
