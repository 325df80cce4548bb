"""Quarantine: a damaged tail of a game's log moved aside, so the game goes on.

A game whose stored events fail their check from some seq on (a row written
past the append path, a forged signature) is refused every write.  An
operator, holding the database owner's rights, moves that tail, from the
first bad seq to the end, into ``quarantined_events`` (every column kept,
with when and why, never deleted), rewinds the game's row to the last good
event and appends a signed ``events_quarantined {"from_seq", "to_seq",
"count", "hashes"}`` event chained on it (:mod:`domain.custody`), all in one
transaction (:meth:`QuarantineStore.set_aside`; ``cablecar quarantine``
drives it).  The server's app role may read the table, never write it, and
may delete no event: the database refuses a DELETE on ``events`` unless the
row was copied into quarantine first (migrations ``0045_quarantine.sql`` /
``0025_quarantine.sql``).

The transparency log outranks the database (issue 48): an event that a
published checkpoint holds is never moved.  ``set_aside`` refuses a tail with
a logged event (:class:`LoggedEvent`, nothing written), taking turns with the
log's publisher so that no checkpoint lands in between, and the database
refuses the DELETE of a logged event whoever runs it (migrations
``0080_logged_events_stay.sql`` / ``0055_logged_events_stay.sql``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from domain.core import JSON
from events.integrity.signing import Signer
from events.records import IntegrityError

#: the event appended after a tail was moved aside (:class:`domain.custody.EventsQuarantined`)
QUARANTINE_EVENT = "events_quarantined"


class TailChanged(IntegrityError):
    """The game's log is no longer what the damage was found in (a write came
    in between): nothing was moved; look again."""


class LoggedEvent(IntegrityError):
    """The tail holds an event a published checkpoint holds: event ``seq`` is
    leaf ``leaf_index`` of the log, first held by the checkpoint of
    ``tree_size`` leaves of ``origin`` (and by every later one).  A logged
    event is never moved aside: nothing was moved."""

    def __init__(self, game_id: str, seq: int, leaf_index: int, tree_size: int, origin: str) -> None:
        super().__init__(
            f"game {game_id}: seq {seq} is leaf {leaf_index} of the transparency log, held by the checkpoint "
            f"{origin} of tree size {tree_size} (and every later one): a logged event is never moved aside, "
            "nothing was moved"
        )
        self.game_id = game_id
        self.seq = seq
        self.leaf_index = leaf_index
        self.tree_size = tree_size
        self.origin = origin


@dataclass(frozen=True)
class QuarantinedRun:
    """One move aside: ``count`` events from ``from_seq`` on, at ``quarantined_at``, why."""

    from_seq: int
    count: int
    quarantined_at: str
    reason: str

    def to_json(self) -> dict[str, JSON]:
        """As ``/audit`` reports it."""
        return {"from_seq": self.from_seq, "count": self.count, "quarantined_at": self.quarantined_at,
                "reason": self.reason}


@dataclass(frozen=True)
class SetAside:
    """What :meth:`QuarantineStore.set_aside` did: the run moved and the new head."""

    run: QuarantinedRun
    version: int
    hash: str


class QuarantineStore(ABC):
    """The quarantine of damaged tails (see the module docs)."""

    @abstractmethod
    def set_aside(
        self,
        game_id: str,
        from_seq: int,
        prev_hash: str,
        status: str,
        reason: str,
        signer: Signer,
    ) -> SetAside:
        """In one transaction: move events ``from_seq`` to the last (the whole
        tail) of the game into quarantine, forget the idempotency keys
        that wrote them, rewind the game's row to event ``from_seq - 1`` (whose
        hash is ``prev_hash``) with ``status``, append the signed
        ``events_quarantined`` event after it (listing the range and the hashes
        moved), put back each seat's token hash that a moved rotation replaced
        (``events.sql.token_history``), and reset the game's rows of the
        deadline and bot-turn indexes (lookup aids the server writes again).
        TailChanged if the log is not as described, LoggedEvent if a published
        checkpoint holds an event of the tail (nothing is written either way);
        permission errors from the database for a role that may not."""

    @abstractmethod
    def quarantined(self, game_id: str) -> list[QuarantinedRun]:
        """Every run of the game moved aside, oldest first."""
