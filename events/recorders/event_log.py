"""The event log and game catalogue: :class:`EventStore` and the reads a
standby may serve, :class:`EventReader` (records and errors: :mod:`events.records`).

An :class:`EventStore` holds, per game, an append-only, hash-chained
sequence of :class:`StoredEvent` envelopes (``seq`` 1, 2, 3… with no gaps)
plus one mutable metadata row per game (type, status, version, created_at
and a JSON ``metadata`` dict owned by the service).  The other capabilities
of the same database (tournaments, deliveries, …) are recorders of their own
(:mod:`events.recorders`); ``events.open_store(url)`` hands them all out
(:class:`events.Stores`).  Backends (``events.sqlite``, ``events.postgres``,
sharing their SQL from ``events.sql``) translate every driver exception into
the errors of :mod:`events.records` (``raise ... from e``); a call that could never succeed (an empty batch, a
payload that is not plain JSON, a page size outside 1..10000) raises
``ValueError`` before touching the database.

Guarantees every backend gives (``tests/contract`` checks them on each):

* ``append`` is atomic: all events and the game row change, or nothing;
* per game, ``seq`` runs 1, 2, 3... without gaps; of several writers with
  the same ``expected_version`` exactly one wins, the others get
  :class:`StaleVersion` with the winner's version;
* the global ``position`` only grows, and positions become visible in
  order: a reader of ``read_all`` that has seen position P never later
  finds a new event at or below P (positions may skip numbers);
* the database refuses UPDATE and DELETE of stored events (triggers);
* ``verify_chain`` recomputes every hash (see ``events.integrity.envelope``) and
  reports edited, removed, reordered or injected events.  The chain has no
  secret, so someone able to rewrite the whole table could rebuild it: it
  is tamper-evident against partial edits and against copies held outside
  (exports), not a signature;
* every event appended through a store given a :class:`~events.integrity.signing.Signer`
  carries its Ed25519 signature and key id (checked by :mod:`events.integrity.verify`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence

from domain.core import JSON
from events.records import (
    PLAIN,
    AppendOptions,
    AppendResult,
    ChainReport,
    GamePage,
    GameRecord,
    NewEvent,
    StoredEvent,
)


class EventReader(ABC):
    """The reads a hot standby may serve (``CABLECAR_READ_DATABASE_URL``):
    event pages, the global log, listings and chain checks.  Whoever answers
    them answers as of a moment no earlier than the call: an implementation
    on a replica waits for it to replay what the primary had committed (or
    asks the primary), so a reader never sees fewer events than it would
    have on the primary and never goes backwards."""

    @abstractmethod
    def load(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of a game with ``seq > after``, ascending, at most ``limit``;
        GameNotFound for an unknown game."""

    @abstractmethod
    def list_games(
        self,
        status: str | None = None,
        game_type: str | None = None,
        batch: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        ref: str | None = None,
    ) -> GamePage:
        """Games newest first, filtered; ``batch`` matches ``metadata['batch']``,
        ``ref`` the organiser's ``metadata['ref']``.

        ``cursor`` is the ``next_cursor`` of the previous page (opaque);
        InvalidCursor for anything else."""

    @abstractmethod
    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """The global log: events of every game with ``position > after_position``,
        ascending by position (see the ordering guarantee above)."""

    @abstractmethod
    def verify_chain(self, game_id: str) -> ChainReport:
        """Recompute every hash of the game's chain and report tampering."""


class EventStore(EventReader):
    """Append-only, hash-chained event storage for games (its reads are
    :class:`EventReader`'s)."""

    @abstractmethod
    def create_game(
        self,
        game_id: str,
        game_type: str,
        metadata: Mapping[str, JSON],
        events: Sequence[NewEvent],
        status: str,
    ) -> tuple[StoredEvent, ...]:
        """Create the game row and append its first events atomically.

        Raises GameExists if the id is taken."""

    @abstractmethod
    def append(
        self, game_id: str, expected_version: int, events: Sequence[NewEvent], options: AppendOptions = PLAIN
    ) -> AppendResult:
        """Append ``events`` atomically after ``expected_version``.

        The events' ``recorded_at`` is the database's time, judged inside the
        append (see :mod:`events.recorders.deadlines`): OutsideDeadline when, by that
        clock, the append comes after ``not_after`` (a deadline running at
        ``expected_version``: an action) or before ``not_before`` (the
        deadline a timeout acts on).

        ``options`` (:class:`~events.records.AppendOptions`) carries what the
        append may add to its events: raises GameNotFound for an unknown game,
        then GuardFailed if ``guard`` does not hold in the game's metadata when the write commits.  With an
        ``idempotency_key`` already used for this game, nothing is written
        and the events of the first append are returned with
        ``replayed=True``; otherwise StaleVersion(current) if another writer
        got there first.  ``status`` (if given) updates the game row in the
        same transaction, and so does ``token`` (a seat's new token hash, with
        its ``seat_token_rotated`` event; ValueError for any other batch).
        Nothing else ever changes a game's metadata after its creation."""

    @abstractmethod
    def lookup_idempotency(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """The events (``replayed=True``) and request_hash of an earlier append
        to this game with ``idempotency_key``, or None if the key is unused
        (also for an unknown game)."""

    @abstractmethod
    def version(self, game_id: str) -> int:
        """The seq of the game's last event (0 if none); GameNotFound if unknown."""

    @abstractmethod
    def get_game(self, game_id: str) -> GameRecord:
        """The game's metadata row; GameNotFound if unknown."""

    @abstractmethod
    def seat_hash_before(self, game_id: str, seat: int, epoch: int) -> str | None:
        """The token hash of ``seat`` that the rotation at ``epoch`` (its
        event's seq) replaced, or None when none is kept (the server takes a
        rotated hash only if its event verifies: :mod:`events.sql.token_history`)."""

    @abstractmethod
    def wait_for_events(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until the game has an event with
        ``seq > after_seq``; True if it has.  Wake-ups come from the database
        (LISTEN/NOTIFY or polling), never from process memory alone."""
