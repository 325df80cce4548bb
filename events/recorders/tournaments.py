"""The tournament interface: organisers, their batches of games and their
webhook registrations, with the records it hands out.

It lives in the same database as the event log (a batch's games are created
in the batch's transaction, a webhook starts at the log's head), so a
backend implements it on the same object as :class:`~events.records.EventStore`;
callers that only manage tournaments depend on this interface alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from events.records import NewGame


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
    #: the organiser's own id of the batch, and when its games start (ISO-8601 UTC; None: at creation)
    ref: str | None = None
    starts_at: str | None = None


@dataclass(frozen=True)
class BatchPage:
    """One page of an organiser's batches, newest first."""

    batches: tuple[BatchRecord, ...]
    next_cursor: str | None


@dataclass(frozen=True)
class WebhookRecord:
    """A registered webhook.  ``batch_id`` None covers every game of the
    organiser; ``from_position`` is the head of the global log when it was
    registered (only later events are delivered), ``from_tree_size`` the
    latest published checkpoint's tree size then (only later checkpoints are
    delivered); ``secret`` signs bodies, so it is kept, not hashed: sealed
    by the server (``service.adapters.webhooks.sealing``), as stored."""

    webhook_id: str
    organiser_id: str
    url: str
    batch_id: str | None
    events: tuple[str, ...]
    secret: str
    from_position: int
    active: bool
    created_at: str
    from_tree_size: int = 0


class TournamentStore(ABC):
    """Organisers, batches and webhooks (see the module docs)."""

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
        games: Sequence[NewGame],
        ref: str | None = None,
        starts_at: datetime | None = None,
    ) -> BatchRecord:
        """Create the batch row (with the organiser's ``ref`` and the games'
        ``starts_at``, both fixed from then on) and every game of it (as
        :meth:`~events.records.EventStore.create_game` does one)
        in ONE transaction: all or nothing.  ``ValueError`` for no games;
        GameExists for a taken game id; IntegrityError for a taken batch id
        or an unknown organiser."""

    @abstractmethod
    def get_batch(self, batch_id: str) -> BatchRecord | None:
        """The batch, or None if unknown."""

    @abstractmethod
    def list_batches(
        self, organiser_id: str, limit: int = 50, cursor: str | None = None, ref_prefix: str | None = None
    ) -> BatchPage:
        """The organiser's batches newest first (only those whose ref starts
        with ``ref_prefix``, if given); ``cursor`` is the previous page's
        ``next_cursor`` (InvalidCursor else)."""

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
        the global log now, and ``from_tree_size`` the latest published
        checkpoint's tree size (0 before the first).  IntegrityError for an unknown organiser or batch
        or a taken id; ``ValueError`` for no events."""

    @abstractmethod
    def get_webhook(self, webhook_id: str) -> WebhookRecord | None:
        """The webhook (active or not), or None if unknown."""

    @abstractmethod
    def list_webhooks(self, organiser_id: str) -> tuple[WebhookRecord, ...]:
        """The organiser's active webhooks, oldest first."""

    @abstractmethod
    def organiser_wide_webhooks(self) -> tuple[WebhookRecord, ...]:
        """Every organiser's active webhooks without a batch, oldest first
        (those a ``log.checkpoint`` delivery may go to)."""

    @abstractmethod
    def deactivate_webhook(self, webhook_id: str) -> bool:
        """Stop a webhook: no new deliveries, its pending ones become
        ``failed``.  False if it is unknown or already inactive."""
