"""The webhook delivery log: where the dispatchers stand in the global event
log, the deliveries they derived from it, leases on them and their attempts.

Work on deliveries is claimed in the database (a lease per claim), so any
number of dispatcher processes can share it without sending one delivery
twice at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

#: The states of a webhook delivery: waiting for its (next) attempt, or done.
DELIVERY_STATES = ("pending", "delivered", "failed")
#: The dispatchers' cursors: over the global event log (positions), and over
#: the transparency log's published checkpoints (tree sizes)
EVENTS_CURSOR = "webhooks"
CHECKPOINTS_CURSOR = "checkpoints"


@dataclass(frozen=True)
class DispatchState:
    """Where the webhook dispatchers stand: ``cursor`` (the log is turned into
    deliveries up to here), ``head`` (the last position of the log),
    ``webhooks`` (how many were ever registered: a registration changes it)
    and whether any is ``active``.  Over the published checkpoints
    (:meth:`DeliveryLog.checkpoint_dispatch_state`) the cursor and head are
    tree sizes, and ``active`` counts organiser-wide webhooks only."""

    cursor: int
    head: int
    webhooks: int
    active: bool


@dataclass(frozen=True)
class NewDelivery:
    """A delivery to create: ``body`` is the exact JSON text that is sent
    (and signed) on every attempt; ``mac`` vouches for it and for where it
    goes (made with a key the database never holds: a delivery without a
    good one is refused, never sent)."""

    delivery_id: str
    webhook_id: str
    #: None for a delivery no game caused (``log.checkpoint``)
    game_id: str | None
    event: str
    body: str
    #: the seq of the event that caused it, for events a game can cause more
    #: than once (a seat going out); 0 for those it causes once; a
    #: checkpoint's tree size for a delivery without a game
    occurrence: int = 0
    mac: str | None = None

    def __post_init__(self) -> None:
        if self.game_id is None and self.occurrence < 1:
            raise ValueError("a delivery without a game names its checkpoint's tree size (1 or more) as occurrence")


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
    game_id: str | None  # None: a log.checkpoint delivery
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
    ``attempts`` counts the attempts made before this one; ``secret`` is the
    webhook's secret as stored (sealed), ``mac`` the delivery's as stored."""

    delivery_id: str
    webhook_id: str
    game_id: str | None  # None: a log.checkpoint delivery
    event: str
    body: str
    url: str
    secret: str
    attempts: int
    occurrence: int = 0
    mac: str | None = None


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


#: no cap on what a webhook or an organiser holds in flight
CLAIM_UNCAPPED = 2**31 - 1


class DeliveryLog(ABC):
    """The dispatch cursor, deliveries, their leases and attempts."""

    @abstractmethod
    def dispatch_state(self) -> DispatchState:
        """The cursor, the head of the log and the webhooks, read at once."""

    @abstractmethod
    def checkpoint_dispatch_state(self) -> DispatchState:
        """Over the transparency log's checkpoints: the cursor (tree size),
        the latest published tree size, the webhooks ever registered and
        whether any organiser-wide one (no batch) is active, read at once."""

    @abstractmethod
    def record_deliveries(
        self,
        expected_cursor: int,
        new_cursor: int,
        deliveries: Sequence[NewDelivery],
        now: datetime,
        webhooks_seen: int | None = None,
        cursor: str = EVENTS_CURSOR,
    ) -> bool:
        """In one transaction: create ``deliveries`` (pending, due ``now``; a
        delivery that exists already for the same webhook, game (or
        checkpoint, without a game) and event is kept as it is) and move the
        cursor named ``cursor`` (:data:`EVENTS_CURSOR` or
        :data:`CHECKPOINTS_CURSOR`) from ``expected_cursor`` to
        ``new_cursor``.  If the cursor is no longer ``expected_cursor``
        (another dispatcher got there first), or ``webhooks_seen`` is given
        and a webhook was registered since (the deliveries were decided
        without it), nothing is written: False.

        Registration
        (:meth:`~events.recorders.tournaments.TournamentStore.create_webhook`) and this method serialise on
        the cursors: a webhook registered after a cursor moved starts after
        the new cursor, so no event or checkpoint is ever skipped for it."""

    @abstractmethod
    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int,
        per_webhook: int = CLAIM_UNCAPPED, per_organiser: int = CLAIM_UNCAPPED,
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` pending deliveries that are due at ``now``
        (of active webhooks, not leased to anybody) to ``owner`` until
        ``now + lease_seconds``.  Concurrent claimers never get the same
        delivery while its lease runs.

        Fairly: organisers take turns (the one holding the fewest deliveries
        in flight first, then the longest-due), and no webhook holds more
        than ``per_webhook`` deliveries in flight, nor any organiser more
        than ``per_organiser``, this claim's included (claims running at the
        same moment may each fill a cap: it is a bound per claim, not a lock)."""

    @abstractmethod
    def record_attempt(self, delivery_id: str, owner: str, outcome: AttemptOutcome) -> bool:
        """Log one attempt and move the delivery to ``outcome.state``,
        releasing the lease.  False (nothing written) unless ``owner`` still
        holds the lease of this pending delivery."""

    @abstractmethod
    def list_deliveries(self, webhook_id: str, limit: int = 50, cursor: str | None = None) -> DeliveryPage:
        """The webhook's deliveries newest first, each with its attempts;
        ``cursor`` is the previous page's ``next_cursor`` (InvalidCursor else)."""
