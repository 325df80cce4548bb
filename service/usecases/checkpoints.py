"""The transparency log (issue 35): the publisher that extends the Merkle tree
over the global event log and signs a checkpoint of it, and the reads that
serve checkpoints, consistency proofs and a finished game's inclusion proof.

Appends never touch the tree.  The :class:`LogPublisher` follows the global
log (``read_all``'s order, never skipping a committed event): every
``CABLECAR_LOG_INTERVAL`` seconds, when new events exist, it takes up to
:data:`MAX_LEAVES` of them, makes each one's leaf
``leaf_hash(event hash || the game's leaf_salt)`` (32 + 32 raw bytes), hashes
the perfect nodes they complete (:func:`events.integrity.merkle.new_nodes`, their left
halves read from the stored frontier), and stores the leaves, the nodes and a
checkpoint signed with the server's current key in one transaction.  One
publisher works at a time across every process and host (the lease the
timeout sweeper uses, :meth:`~events.recorders.deadlines.DeadlineIndex.hold_lease`); two
that overlap anyway cannot both land a tree of one size
(:class:`events.recorders.transparency_log.LogConflict`).

It extends the log's head (:meth:`~events.recorders.transparency_log.TransparencyLog.head`),
never whatever row the tables hold beyond it: a row no publication wrote
(issue 48: planted by a database login) is moved aside by the publication
that finds it, which goes on, and is reported here (a warning naming the
tables, and ``cablecar_log_foreign_rows``).  What clients are served is kept
to checkpoints whose note verifies (:mod:`service.usecases.checkpoint_notes`).

Every proof is read from O(log n) stored nodes in one query
(:meth:`~events.recorders.transparency_log.TransparencyLog.node_hashes`).

Keys (issue 48): a started publisher first records the server's keys in its
own stream (:mod:`service.usecases.server_stream`), whatever process holds
the lease.  Checkpoints carry no time, so a key's retirement is placed in the
log: the tree whose last leaf is its ``key_retired`` event is the largest a
checkpoint it signs may have (verifiers refuse a larger one), and a publisher
whose key the stream retired signs nothing beyond it and gives up the lease.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.core import STATUS_CANCELLED, STATUS_FINISHED
from events.encoding.timestamps import format_timestamp, parse_timestamp
from events.integrity import merkle
from events.integrity.checkpoint import Checkpoint, b64, key_hash, parse_note, sign_note
from events.integrity.lifetimes import SERVER_LEAF_SALT, SERVER_STREAM
from events.integrity.signing import Signer
from events.recorders.deadlines import DeadlineIndex
from events.recorders.event_log import EventStore
from events.recorders.transparency_log import (
    LogBusy,
    LogConflict,
    LogLeaf,
    Node,
    PublishedCheckpoint,
    TransparencyLog,
)
from events.records import GameNotFound
from service.adapters import prometheus
from service.errors import GameNotFinished, InvalidRequest, NotFound
from service.usecases.leased import LeasedLoop
from service.usecases.server_stream import ServerStream

log = logging.getLogger("cablecar.transparency")

#: the lease one publisher holds at a time, and for how long (seconds)
LEASE_NAME = "transparency-log"
LEASE_SECONDS = 10.0
#: at most this many leaves per checkpoint (a bigger backlog takes several)
MAX_LEAVES = 10_000
#: the longest interval between checkpoints while events arrive (issue 35)
MAX_INTERVAL = 10.0
#: past this age of the latest checkpoint (seconds) while events wait to be logged, the health is degraded
MAX_CHECKPOINT_AGE = 60.0


def check_interval(seconds: float) -> float:
    """``CABLECAR_LOG_INTERVAL``, refused unless 0 < seconds <= 10."""
    if not 0 < seconds <= MAX_INTERVAL:
        raise ValueError(f"CABLECAR_LOG_INTERVAL must be more than 0 and at most {MAX_INTERVAL:g} seconds, "
                         f"got {seconds:g}")
    return seconds


def check_origin(origin: str) -> str:
    """``CABLECAR_LOG_ORIGIN``, refused unless a checkpoint can carry it (and it names a key)."""
    try:
        Checkpoint(origin, 0, merkle.EMPTY_ROOT)
        key_hash(origin, bytes(32))
    except ValueError as e:
        raise ValueError(f"CABLECAR_LOG_ORIGIN {origin!r} cannot be a checkpoint's origin: {e}") from e
    return origin


class LogPublisher:
    """Extends the tree and publishes a signed checkpoint (see the module docs)."""

    def __init__(self, log: TransparencyLog, signer: Signer, origin: str, clock: DeadlineIndex,
                 max_leaves: int = MAX_LEAVES, stream: ServerStream | None = None) -> None:
        self.log = log
        self.signer = signer
        self.origin = check_origin(origin)
        self.clock = clock
        self.max_leaves = max_leaves
        #: the server's own stream, where its key's retirement shows (None: not looked at)
        self.stream = stream
        #: whether the log holds this key's retirement already: it signs no larger tree (a server to restart)
        self.retired = False

    def publish(self) -> PublishedCheckpoint | None:
        """Publish one checkpoint covering the events appended since the last
        one (at most ``max_leaves`` of them); None when there are none, or
        when another publisher was first (it published them).
        :class:`~events.recorders.transparency_log.LogBusy` when another
        transaction holds the head longer than a publication takes."""
        head = self.log.head()
        size, after = head.tree_size, head.last_position
        events = self.log.log_events(after, self.max_leaves)
        if not events:
            return None
        retired = None if self.stream is None else self.stream.retirement(self.signer.key_id)
        if retired is not None:  # the tree up to its key_retired leaf is the last this key signs
            events = [e for e in events if e.position <= retired.position]
            if not events:
                if not self.retired:
                    log.warning("the log's signing key %s is retired (seq %d of the server's stream): this "
                                "process publishes no more checkpoints; restart it with the new key",
                                self.signer.key_id, retired.seq)
                self.retired = True
                return None
        leaves: list[LogLeaf] = []
        leaf_hashes: list[bytes] = []
        for i, e in enumerate(events):
            salt = SERVER_LEAF_SALT if e.game_id == SERVER_STREAM else e.leaf_salt  # public, whatever its row says
            if salt is None:
                raise ValueError(f"game {e.game_id} has no leaf_salt: migrate the database")
            leaves.append(LogLeaf(size + i, e.game_id, e.seq, e.position))
            leaf_hashes.append(merkle.leaf_hash(bytes.fromhex(e.hash) + bytes.fromhex(salt)))
        new_size = size + len(events)
        hashes = self.log.node_hashes(merkle.tree_nodes(size))
        nodes: list[tuple[int, int, bytes]] = []
        for level, index in merkle.new_nodes(size, new_size):
            if level == 0:
                digest = leaf_hashes[index - size]
            else:
                digest = merkle.node_hash(hashes[(level - 1, 2 * index)], hashes[(level - 1, 2 * index + 1)])
            hashes[(level, index)] = digest
            nodes.append((level, index, digest))
        root = merkle.range_hash([hashes[n] for n in merkle.tree_nodes(new_size)])
        body = Checkpoint(self.origin, new_size, root).body()
        note = sign_note(body, self.origin, self.signer.public_raw, self.signer.sign_bytes)
        published = PublishedCheckpoint(new_size, root, note, self.signer.key_id, events[-1].position,
                                        format_timestamp(self.clock.estimated_time()))
        try:
            publication = self.log.publish_checkpoint(size, leaves, nodes, published)
        except LogBusy:
            raise  # not a publisher that was first: a transaction holding the head (the loop says so)
        except LogConflict:
            return None
        if publication.foreign_rows:
            _report_foreign_rows(size, publication.foreign_rows)
        return publication.checkpoint


def _report_foreign_rows(head: int, found: dict[str, int]) -> None:
    """Rows no publication wrote, found beyond the head and moved aside: said once, and counted."""
    for table, count in found.items():
        prometheus.LOG_FOREIGN_ROWS.labels(table=table).inc(count)
    log.warning("transparency log: rows no publication wrote were found beyond the published tree of %d leaves"
                " and moved to log_foreign_rows (%s): someone wrote the log's tables around the publisher",
                head, ", ".join(f"{table}: {count}" for table, count in sorted(found.items())))


class LogPublishing(LeasedLoop["PublishedCheckpoint | None"]):
    """The background thread that publishes every ``interval`` seconds while it holds the lease."""

    lease_name = LEASE_NAME
    thread_name = "log-publisher"

    def __init__(self, publisher: LogPublisher, leases: DeadlineIndex, interval: float,
                 on_error: Callable[[Exception], None] | None = None,
                 record_keys: Callable[[], object] | None = None) -> None:
        interval = check_interval(interval)
        super().__init__(leases, interval, max(LEASE_SECONDS, 3 * interval), on_error)
        self.publisher = publisher
        #: records the server's keys in its own stream, once, in the first round it succeeds (any process)
        self._record_keys = record_keys

    def run_once(self) -> PublishedCheckpoint | None:
        if self._record_keys is not None:
            self._record_keys()
            self._record_keys = None
        if self.publisher.retired:  # its lease lapses: a process with the new key takes over
            self.holding = False
            return self.idle()
        return super().run_once()

    def work(self) -> PublishedCheckpoint | None:
        published = self.publisher.publish()
        prometheus.CHECKPOINT_CURRENT.set(time.time())  # signed up to the head it read (or nothing new)
        return published

    def idle(self) -> PublishedCheckpoint | None:
        return None


def checkpoint_json(cp: PublishedCheckpoint) -> dict[str, Any]:
    """A checkpoint as ``GET /v1/log/checkpoint`` answers it (its origin as its note says)."""
    origin = Checkpoint.parse(parse_note(cp.note)[0]).origin
    return {"origin": origin, "tree_size": cp.tree_size, "root_hash": b64(cp.root_hash), "note": cp.note,
            "key_id": cp.key_id}


@dataclass(frozen=True)
class LogFreshness:
    """How current the served log is (``/v1/health``'s ``log``): the latest
    checkpoint's tree size and age (None: none yet), and whether it is ``ok``
    (not older than :data:`MAX_CHECKPOINT_AGE` while events wait to be logged)."""

    tree_size: int
    checkpoint_age_s: float | None
    ok: bool
    detail: str


@dataclass(frozen=True)
class LogProofs:
    """The reads of the transparency log that clients ask for."""

    log: TransparencyLog
    games: EventStore

    def checkpoint(self, tree_size: int | None = None) -> PublishedCheckpoint:
        """The published checkpoint of ``tree_size`` (None: the latest); NotFound otherwise."""
        if tree_size is not None and tree_size < 0:
            raise InvalidRequest("tree_size must be a whole number of leaves (0 or more)")
        found = self.log.checkpoint(tree_size)
        if found is None:
            raise NotFound("no checkpoint has been published yet" if tree_size is None
                           else f"no checkpoint of tree size {tree_size} has been published")
        return found

    def freshness(self, now: datetime) -> LogFreshness:
        """The latest served checkpoint's age at ``now`` (the database's time), and
        whether events recorded since wait longer than the log allows (see :class:`LogFreshness`)."""
        cp = self.log.checkpoint()
        if cp is None:
            first = self.games.read_all(0, 1)
            waited = 0.0 if not first else (now - parse_timestamp(first[0].recorded_at)).total_seconds()
            if waited <= MAX_CHECKPOINT_AGE:
                return LogFreshness(0, None, True, "no checkpoint yet: the first follows the first events")
            return LogFreshness(0, None, False, f"no checkpoint although events wait since {waited:.0f} s "
                                                f"(more than {MAX_CHECKPOINT_AGE:.0f} s): the log is not published")
        age = max(0.0, (now - parse_timestamp(cp.created_at)).total_seconds())
        if age <= MAX_CHECKPOINT_AGE:
            return LogFreshness(cp.tree_size, age, True, f"the latest checkpoint is {age:.0f} s old")
        if not self.log.log_events(cp.last_position, 1):
            return LogFreshness(cp.tree_size, age, True,
                                f"the latest checkpoint is {age:.0f} s old and holds every event")
        return LogFreshness(cp.tree_size, age, False,
                            f"the latest checkpoint is {age:.0f} s old (more than {MAX_CHECKPOINT_AGE:.0f} s) "
                            "while events wait to be logged: the log is not being published")

    def consistency(self, first: int, second: int) -> list[bytes]:
        """The consistency proof between two published checkpoints."""
        if first < 1 or second < 1:
            raise InvalidRequest("first and second are tree sizes of published checkpoints (1 or more)")
        if first > second:
            raise InvalidRequest(f"first ({first}) may not be larger than second ({second})")
        self.checkpoint(first)
        self.checkpoint(second)
        return self._proof(merkle.consistency_ranges(first, second))

    def inclusion(self, game_id: str, tree_size: int | None = None) -> tuple[PublishedCheckpoint, LogLeaf, list[bytes]]:
        """The inclusion proof of a finished game's last event in a published
        tree: (its checkpoint, the leaf, the proof)."""
        if tree_size is not None and tree_size < 1:
            raise InvalidRequest("tree_size must be a published tree size (1 or more)")
        if game_id == SERVER_STREAM:  # the server's own stream is no game
            raise GameNotFound(game_id)
        record = self.games.get_game(game_id)  # GameNotFound: 404
        if record.status not in (STATUS_FINISHED, STATUS_CANCELLED):
            raise GameNotFinished("the inclusion proof of a game is available once the game is finished")
        cp = self.checkpoint(tree_size)
        leaf = self.log.game_leaf(game_id, record.version)
        if leaf is None or leaf.leaf_index >= cp.tree_size:
            raise NotFound(f"the log's tree of size {cp.tree_size} does not hold the game's last event yet"
                           " (a checkpoint that does is published within seconds)")
        return cp, leaf, self._proof(merkle.inclusion_ranges(leaf.leaf_index, cp.tree_size))

    def _proof(self, ranges: Sequence[tuple[int, int]]) -> list[bytes]:
        """The MTHs of ``ranges``, from one read of their perfect nodes."""
        per_range: list[list[Node]] = [merkle.range_nodes(a, b) for a, b in ranges]
        hashes = self.log.node_hashes([n for nodes in per_range for n in nodes])
        return [merkle.range_hash([hashes[n] for n in nodes]) for nodes in per_range]
