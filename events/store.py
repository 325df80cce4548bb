"""The one event-store interface every backend implements, and its errors.

A store holds, per game, an append-only, hash-chained sequence of
:class:`StoredEvent` envelopes (``seq`` 1, 2, 3… with no gaps) plus one
mutable metadata row per game (type, status, version, created_at and a JSON
``metadata`` dict owned by the service).  Backends live one per module
(``events.sqlite_store``, ``events.postgres_store``) and translate every
driver exception into the errors below (``raise ... from e``); a call that
could never succeed (an empty batch, a payload that is not plain JSON, a
page size outside 1..10000) raises ``ValueError`` before touching the
database.  ``events.open_store(url)`` picks the backend.

Guarantees every backend gives (``tests/contract`` checks them on each):

* ``append`` is atomic: all events and the game row change, or nothing;
* per game, ``seq`` runs 1, 2, 3... without gaps; of several writers with
  the same ``expected_version`` exactly one wins, the others get
  :class:`StaleVersion` with the winner's version;
* the global ``position`` only grows, and positions become visible in
  order: a reader of ``read_all`` that has seen position P never later
  finds a new event at or below P (positions may skip numbers);
* the database refuses UPDATE and DELETE of stored events (triggers);
* ``verify_chain`` recomputes every hash (see ``events.envelope``) and
  reports edited, removed, reordered or injected events.  The chain has no
  secret, so someone able to rewrite the whole table could rebuild it: it
  is tamper-evident against partial edits and against copies held outside
  (exports), not a signature.

Tournament tables (organisers, batches, webhooks, webhook deliveries and the
dispatcher's cursor over the global log) live in the same database; their
methods are at the end of :class:`EventStore`.  Work on deliveries is
claimed in the database (a lease per claim), so any number of dispatcher
processes can share it without sending one delivery twice at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.core import JSON


class StoreError(Exception):
    """Base of every error raised by an event store."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or failed; nothing was written."""


class StaleVersion(StoreError):
    """Another writer appended first: ``expected`` is not the game's version."""

    def __init__(self, game_id: str, expected: int, current: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, current is {current}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class GameNotFound(StoreError):
    """No game with this id exists in the store."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class GuardFailed(StoreError):
    """An append's :class:`MetadataGuard` no longer holds; nothing was written."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id}: the append's metadata guard does not hold")
        self.game_id = game_id


class GameExists(StoreError):
    """A game with this id already exists."""


class IntegrityError(StoreError):
    """Stored data violates an invariant (e.g. the database refused a write)."""


class InvalidCursor(StoreError, ValueError):
    """A ``list_games`` cursor that this store did not hand out."""


@dataclass(frozen=True)
class NewEvent:
    """An event to append: what the domain produced plus who acted."""

    type: str
    payload: Mapping[str, JSON]
    schema_version: int = 1
    seat: int | None = None


@dataclass(frozen=True)
class StoredEvent:
    """The envelope of a stored event (see ``events.envelope`` for hashing)."""

    game_id: str
    seq: int
    position: int
    type: str
    schema_version: int
    payload: Mapping[str, JSON]
    recorded_at: str
    seat: int | None
    idempotency_key: str | None
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class GameRecord:
    """The mutable per-game metadata row."""

    game_id: str
    game_type: str
    status: str
    version: int
    created_at: str
    updated_at: str
    metadata: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class MetadataGuard:
    """A condition an append checks atomically with its write: the game's
    metadata holds the string ``value`` at ``path`` (object keys and list
    indexes), e.g. ``(("seat_token_hashes", 2), "ab12...")``: the acting
    seat's token has not been rotated since the caller looked."""

    path: tuple[str | int, ...]
    value: str

    def __post_init__(self) -> None:
        if not self.path:
            raise ValueError("a metadata guard needs a path")
        for step in self.path:
            if isinstance(step, bool) or not isinstance(step, int | str):
                raise ValueError(f"a guard path holds keys and list indexes, not {step!r}")
            if isinstance(step, int) and step < 0:
                raise ValueError(f"a guard path's list index cannot be negative: {step}")
            if isinstance(step, str) and not (step and step.replace("_", "").isalnum() and step.isascii()):
                raise ValueError(f"a guard path's key must be letters, digits and '_': {step!r}")

    def holds_in(self, metadata: Mapping[str, JSON]) -> bool:
        """Whether the guard holds in ``metadata`` (a missing path does not)."""
        node: Any = metadata
        for step in self.path:
            in_list = isinstance(step, int) and isinstance(node, list) and 0 <= step < len(node)
            in_dict = isinstance(step, str) and isinstance(node, dict) and step in node
            if not (in_list or in_dict):
                return False
            node = node[step]
        return isinstance(node, str) and node == self.value


@dataclass(frozen=True)
class DispatchState:
    """Where the webhook dispatchers stand: ``cursor`` (the log is turned into
    deliveries up to here), ``head`` (the last position of the log),
    ``webhooks`` (how many were ever registered: a registration changes it)
    and whether any is ``active``."""

    cursor: int
    head: int
    webhooks: int
    active: bool


@dataclass(frozen=True)
class AppendResult:
    """What ``append`` wrote, or (``replayed=True``) what an earlier append with
    the same idempotency key wrote; ``request_hash`` is the one stored with it."""

    events: tuple[StoredEvent, ...]
    replayed: bool = False
    request_hash: str | None = None


@dataclass(frozen=True)
class ChainReport:
    """Result of :meth:`EventStore.verify_chain`."""

    ok: bool
    checked: int
    problems: tuple[str, ...] = ()
    first_bad_seq: int | None = None


@dataclass(frozen=True)
class GamePage:
    """One page of the game listing; ``next_cursor`` is None on the last page."""

    games: tuple[GameRecord, ...]
    next_cursor: str | None


# -- tournaments: organisers, batches, webhooks and their deliveries ----------

#: The states of a webhook delivery: waiting for its (next) attempt, or done.
DELIVERY_STATES = ("pending", "delivered", "failed")


@dataclass(frozen=True)
class OrganiserRecord:
    """A tournament organiser; only the SHA-256 hash of its token is kept."""

    organiser_id: str
    name: str
    token_hash: str
    created_at: str


@dataclass(frozen=True)
class BatchRecord:
    """A batch of games created together (a tournament round); its games
    carry ``metadata['batch'] == batch_id``."""

    batch_id: str
    organiser_id: str
    name: str | None
    game_type: str
    tables: int
    created_at: str


@dataclass(frozen=True)
class BatchPage:
    """One page of an organiser's batches, newest first."""

    batches: tuple[BatchRecord, ...]
    next_cursor: str | None


@dataclass(frozen=True)
class WebhookRecord:
    """A registered webhook.  ``batch_id`` None covers every game of the
    organiser; ``from_position`` is the head of the global log when it was
    registered (only later events are delivered); ``secret`` signs bodies, so
    it is kept as is, not hashed."""

    webhook_id: str
    organiser_id: str
    url: str
    batch_id: str | None
    events: tuple[str, ...]
    secret: str
    from_position: int
    active: bool
    created_at: str


@dataclass(frozen=True)
class NewDelivery:
    """A delivery to create: ``body`` is the exact JSON text that is sent
    (and signed) on every attempt."""

    delivery_id: str
    webhook_id: str
    game_id: str
    event: str
    body: str


@dataclass(frozen=True)
class DeliveryAttempt:
    """One attempt to deliver: the receiver's HTTP status, or the error
    (timeout, refused connection) when there was no answer."""

    attempt: int
    attempted_at: str
    status_code: int | None
    error: str | None
    duration_ms: int


@dataclass(frozen=True)
class DeliveryRecord:
    """A delivery with its attempts so far (``history``, oldest first)."""

    delivery_id: str
    webhook_id: str
    game_id: str
    event: str
    body: str
    state: str
    attempts: int
    created_at: str
    next_attempt_at: str | None
    delivered_at: str | None
    last_status_code: int | None
    last_error: str | None
    history: tuple[DeliveryAttempt, ...] = ()


@dataclass(frozen=True)
class DeliveryPage:
    """One page of a webhook's deliveries, newest first."""

    deliveries: tuple[DeliveryRecord, ...]
    next_cursor: str | None


@dataclass(frozen=True)
class ClaimedDelivery:
    """A due delivery leased to one dispatcher, with what sending it needs;
    ``attempts`` counts the attempts made before this one."""

    delivery_id: str
    webhook_id: str
    game_id: str
    event: str
    body: str
    url: str
    secret: str
    attempts: int


@dataclass(frozen=True)
class AttemptOutcome:
    """What a dispatcher reports after one attempt.

    ``state`` is ``delivered``, ``pending`` (retry at ``next_attempt_at``,
    required then and only then) or ``failed`` (no more attempts)."""

    attempted_at: datetime
    state: str
    status_code: int | None
    error: str | None
    duration_ms: int
    next_attempt_at: datetime | None = None

    def __post_init__(self) -> None:
        if self.state not in DELIVERY_STATES:
            raise ValueError(f"state must be one of {DELIVERY_STATES}, got {self.state!r}")
        if (self.state == "pending") != (self.next_attempt_at is not None):
            raise ValueError("next_attempt_at is required for a pending delivery, and only then")
        if self.duration_ms < 0:
            raise ValueError(f"duration_ms must be >= 0, got {self.duration_ms}")


class EventStore(ABC):
    """Append-only, hash-chained event storage for games."""

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
    def create_games(
        self,
        games: Sequence[tuple[str, str, Mapping[str, JSON], Sequence[NewEvent], str]],
    ) -> None:
        """Create several games (``(game_id, type, metadata, events, status)``)
        in one transaction: all or none."""

    @abstractmethod
    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        status: str | None = None,
        guard: MetadataGuard | None = None,
    ) -> AppendResult:
        """Append ``events`` atomically after ``expected_version``.

        Raises GameNotFound for an unknown game, then GuardFailed if ``guard``
        does not hold in the game's metadata when the write commits.  With an
        ``idempotency_key`` already used for this game, nothing is written
        and the events of the first append are returned with
        ``replayed=True``; otherwise StaleVersion(current) if another writer
        got there first.  ``status`` (if given) updates the game row in the
        same transaction."""

    @abstractmethod
    def lookup_idempotency(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """The events (``replayed=True``) and request_hash of an earlier append
        to this game with ``idempotency_key``, or None if the key is unused
        (also for an unknown game)."""

    @abstractmethod
    def load(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of a game with ``seq > after``, ascending, at most ``limit``;
        GameNotFound for an unknown game."""

    @abstractmethod
    def version(self, game_id: str) -> int:
        """The seq of the game's last event (0 if none); GameNotFound if unknown."""

    @abstractmethod
    def get_game(self, game_id: str) -> GameRecord:
        """The game's metadata row; GameNotFound if unknown."""

    @abstractmethod
    def update_metadata(self, game_id: str, changes: Mapping[str, JSON]) -> GameRecord:
        """Merge ``changes`` into the game's metadata dict (not the events)."""

    @abstractmethod
    def compare_and_set_metadata(self, game_id: str, key: str, expected: JSON, value: JSON) -> bool:
        """Set ``metadata[key] = value`` only if it currently equals
        ``expected`` (as JSON); True if it was set.  GameNotFound if unknown."""

    @abstractmethod
    def list_games(
        self,
        status: str | None = None,
        game_type: str | None = None,
        batch: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> GamePage:
        """Games newest first, filtered; ``batch`` matches ``metadata['batch']``.

        ``cursor`` is the ``next_cursor`` of the previous page (opaque);
        InvalidCursor for anything else."""

    @abstractmethod
    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """The global log: events of every game with ``position > after_position``,
        ascending by position (see the ordering guarantee above)."""

    @abstractmethod
    def wait_for_events(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until the game has an event with
        ``seq > after_seq``; True if it has.  Wake-ups come from the database
        (LISTEN/NOTIFY or polling), never from process memory alone."""

    @abstractmethod
    def verify_chain(self, game_id: str) -> ChainReport:
        """Recompute every hash of the game's chain and report tampering."""

    @abstractmethod
    def ping(self) -> None:
        """Raise StoreUnavailable if the database cannot be reached."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """Whether :meth:`close` was called (background workers stop then)."""

    # -- tournaments: organisers, batches, webhooks ------------------------------

    @abstractmethod
    def create_organiser(self, organiser_id: str, name: str, token_hash: str) -> OrganiserRecord:
        """Store a new organiser; IntegrityError if the id is taken."""

    @abstractmethod
    def get_organiser(self, organiser_id: str) -> OrganiserRecord | None:
        """The organiser, or None if unknown."""

    @abstractmethod
    def create_batch(
        self,
        batch_id: str,
        organiser_id: str,
        name: str | None,
        game_type: str,
        games: Sequence[tuple[str, str, Mapping[str, JSON], Sequence[NewEvent], str]],
    ) -> BatchRecord:
        """Create the batch row and every game of it (as :meth:`create_games`)
        in ONE transaction: all or nothing.  ``ValueError`` for no games;
        GameExists for a taken game id; IntegrityError for a taken batch id
        or an unknown organiser."""

    @abstractmethod
    def get_batch(self, batch_id: str) -> BatchRecord | None:
        """The batch, or None if unknown."""

    @abstractmethod
    def list_batches(self, organiser_id: str, limit: int = 50, cursor: str | None = None) -> BatchPage:
        """The organiser's batches newest first; ``cursor`` is the previous
        page's ``next_cursor`` (InvalidCursor else)."""

    @abstractmethod
    def create_webhook(
        self,
        webhook_id: str,
        organiser_id: str,
        url: str,
        events: Sequence[str],
        secret: str,
        batch_id: str | None = None,
    ) -> WebhookRecord:
        """Register an active webhook whose ``from_position`` is the head of
        the global log now.  IntegrityError for an unknown organiser or batch
        or a taken id; ``ValueError`` for no events."""

    @abstractmethod
    def get_webhook(self, webhook_id: str) -> WebhookRecord | None:
        """The webhook (active or not), or None if unknown."""

    @abstractmethod
    def list_webhooks(self, organiser_id: str) -> tuple[WebhookRecord, ...]:
        """The organiser's active webhooks, oldest first."""

    @abstractmethod
    def deactivate_webhook(self, webhook_id: str) -> bool:
        """Stop a webhook: no new deliveries, its pending ones become
        ``failed``.  False if it is unknown or already inactive."""

    # -- webhook deliveries, driven from the global log ---------------------------

    @abstractmethod
    def dispatch_cursor(self) -> int:
        """The global position up to which the log has been turned into
        deliveries (0 at first)."""

    @abstractmethod
    def dispatch_state(self) -> DispatchState:
        """The cursor, the head of the log and the webhooks, read at once."""

    @abstractmethod
    def record_deliveries(
        self,
        expected_cursor: int,
        new_cursor: int,
        deliveries: Sequence[NewDelivery],
        now: datetime,
        webhooks_seen: int | None = None,
    ) -> bool:
        """In one transaction: create ``deliveries`` (pending, due ``now``; a
        delivery that exists already for the same webhook, game and event is
        kept as it is) and move the cursor from ``expected_cursor`` to
        ``new_cursor``.  If the cursor is no longer ``expected_cursor``
        (another dispatcher got there first), or ``webhooks_seen`` is given
        and a webhook was registered since (the deliveries were decided
        without it), nothing is written: False.

        Registration (:meth:`create_webhook`) and this method serialise on
        the cursor: a webhook registered after the cursor moved starts after
        the new cursor, so no event is ever skipped for it."""

    @abstractmethod
    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` pending deliveries that are due at ``now``
        (of active webhooks, not leased to anybody) to ``owner`` until
        ``now + lease_seconds``, the longest-due first.  Concurrent claimers
        never get the same delivery while its lease runs."""

    @abstractmethod
    def record_attempt(self, delivery_id: str, owner: str, outcome: AttemptOutcome) -> bool:
        """Log one attempt and move the delivery to ``outcome.state``,
        releasing the lease.  False (nothing written) unless ``owner`` still
        holds the lease of this pending delivery."""

    @abstractmethod
    def list_deliveries(self, webhook_id: str, limit: int = 50, cursor: str | None = None) -> DeliveryPage:
        """The webhook's deliveries newest first, each with its attempts;
        ``cursor`` is the previous page's ``next_cursor`` (InvalidCursor else)."""
