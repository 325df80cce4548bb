"""The transparency log's storage (issue 35): the leaves of one Merkle tree
over every appended event in the global log's order, the hashes of its
perfect subtrees, and every published checkpoint.

The tree itself is :mod:`events.integrity.merkle`'s arithmetic; a store only keeps
rows.  A leaf commits to one event: its leaf hash is
``SHA-256(0x00 || event hash || the game's leaf_salt)``, the salt being a
per-game secret kept in the game's metadata and revealed by the export once
the game is finished, so that nothing served lets anyone test a guess about a
game still being played.

Everything is append-only, and one publication (its leaves, its new nodes and
its checkpoint) is one transaction that moves the log's *head* (the size and
last position of the latest published tree, kept apart from the rows): a
publisher that lost a race to another one finds the head moved and writes
nothing (:class:`LogConflict`), so two different trees of the same size are
never published.  Appends of events do not touch these tables: the tree
follows the log, checkpoint by checkpoint.

Every read keeps to the head: a row beyond it was written by no publication
(issue 48: planted by a login, or by the owner's hand), is never read, and
the next publication moves it aside (``log_foreign_rows``, kept for the
operator) instead of failing on it, and says so (:class:`Publication`).  A
row is not a checkpoint a client may be served until its note verifies under
the server's keys, which the service checks (a store has no keys).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from events.records import StoreError

Node = tuple[int, int]  # (level, index), as in events.integrity.merkle


class LogConflict(StoreError):
    """Another publisher published this tree size (or these leaves) first."""


class LogBusy(LogConflict):
    """Another transaction holds the log's head (for longer than a publication takes): nothing was written."""


@dataclass(frozen=True)
class LogEvent:
    """An event of the global log, as the publisher needs it for its leaf."""

    position: int
    game_id: str
    seq: int
    hash: str  # hex, 64 digits
    leaf_salt: str | None  # hex, 64 digits (None: a game without one, which the publisher refuses)


@dataclass(frozen=True)
class LogLeaf:
    """A leaf of the tree: the event it commits to."""

    leaf_index: int
    game_id: str
    seq: int
    position: int


@dataclass(frozen=True)
class LogHead:
    """The latest published tree: its size and the last global position it includes (0, 0: none yet)."""

    tree_size: int
    last_position: int


@dataclass(frozen=True)
class PublishedCheckpoint:
    """A published checkpoint: the tree's size and root, the signed note
    (C2SP signed note of a tlog-checkpoint body), the signing key's id, the
    last global position the tree includes, and when it was published."""

    tree_size: int
    root_hash: bytes
    note: str
    key_id: str
    last_position: int
    created_at: str


@dataclass(frozen=True)
class Publication:
    """What :meth:`TransparencyLog.publish_checkpoint` stored: the checkpoint
    (on PostgreSQL its time is the database's), and the rows no publication
    wrote that it found where it writes and moved aside, by table."""

    checkpoint: PublishedCheckpoint
    foreign_rows: dict[str, int]


class TransparencyLog(ABC):
    """The transparency log's rows (see the module docs)."""

    @abstractmethod
    def log_events(self, after_position: int, limit: int) -> list[LogEvent]:
        """The global log after ``after_position`` (as ``read_all`` reads it:
        never past an event a running transaction may still precede), each
        with its game's leaf salt, ascending, at most ``limit``."""

    @abstractmethod
    def head(self) -> LogHead:
        """The latest published tree's size and last position."""

    @abstractmethod
    def node_hashes(self, nodes: Sequence[Node]) -> dict[Node, bytes]:
        """The stored hashes of ``nodes``, in one query (a node not stored is absent)."""

    @abstractmethod
    def publish_checkpoint(
        self, previous_size: int, leaves: Sequence[LogLeaf], nodes: Sequence[tuple[int, int, bytes]],
        checkpoint: PublishedCheckpoint,
    ) -> Publication:
        """Add ``leaves``, the new perfect ``nodes`` (level, index, hash) and
        ``checkpoint`` in one transaction, publishers one at a time, and move
        the head to it; :class:`LogConflict` (and nothing written) unless the
        head is still of ``previous_size`` leaves.  Rows beyond the head are
        moved aside first (see the module docs).  A backend may compute the
        rows itself from the events and refuse a checkpoint that is not theirs
        (PostgreSQL does: its server role may not write these rows)."""

    @abstractmethod
    def checkpoint(self, tree_size: int | None = None) -> PublishedCheckpoint | None:
        """The published checkpoint of ``tree_size`` (None: the head's), None if there is none."""

    @abstractmethod
    def checkpoints_after(self, tree_size: int, limit: int) -> list[PublishedCheckpoint]:
        """The published checkpoints larger than ``tree_size``, smallest first, at most ``limit``."""

    @abstractmethod
    def checkpoints_before(self, tree_size: int | None, limit: int) -> list[PublishedCheckpoint]:
        """The published checkpoints smaller than ``tree_size`` (None: up to the
        head's, included), largest first, at most ``limit``."""

    @abstractmethod
    def game_leaf(self, game_id: str, seq: int) -> LogLeaf | None:
        """The leaf of event ``seq`` of the game, None while the tree holds no such leaf."""
