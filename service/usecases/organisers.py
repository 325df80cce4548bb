"""Organiser use cases: organiser accounts and the webhooks they register.

Who may call is decided by :func:`service.usecases.auth.organiser_caller` in the
routes; the methods here take the authenticated :class:`OrganiserRecord`
and refuse other organisers' webhooks and batches (403).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace

from events.recorders.deliveries import DeliveryLog, DeliveryPage
from events.recorders.tournaments import BatchRecord, OrganiserRecord, TournamentStore, WebhookRecord
from events.records import IntegrityError
from service.adapters.idempotency import CreationKey, refuse_reuse
from service.adapters.tokens import ORGANISER, TokenHasher, new_token
from service.adapters.webhooks.hmac import LOG_CHECKPOINT, WEBHOOK_EVENTS
from service.adapters.webhooks.sealing import WebhookKeys
from service.adapters.webhooks.transport import url_refusal
from service.config import declared
from service.errors import Forbidden, InvalidRequest, LimitReached, NotFound

#: A registered webhook's signing secret: ``whsec_`` and 256 random bits.
SECRET_PREFIX = "whsec_"


@dataclass(frozen=True)
class CreatedOrganiser:
    """A new organiser and its token (shown only here, once)."""

    record: OrganiserRecord
    token: str


def new_organiser_id() -> str:
    """A fresh organiser id (16 hexadecimal characters, no ``_``: it is a token scope)."""
    return secrets.token_hex(8)


class OrganiserService:
    """What an organiser does besides creating batches."""

    def __init__(self, tournaments: TournamentStore, deliveries: DeliveryLog, private_addresses: bool = False,
                 max_webhooks: int = 10, keys: WebhookKeys | None = None) -> None:
        self.tournaments = tournaments
        self.delivery_log = deliveries
        self.private_addresses = private_addresses
        self.max_webhooks = max_webhooks
        #: what seals a webhook's secret before it is stored (None: this service registers no webhooks)
        self.keys = keys

    def create(self, name: str, hasher: TokenHasher, key: CreationKey | None = None) -> CreatedOrganiser:
        """Create an organiser; its token (``ot_<id>_<secret>``, 256 random
        bits) is returned once and stored only as its keyed hash (``hasher``).  With an
        Idempotency-Key, the organiser it already created is answered again."""
        if key is not None and (before := self.created_with(key, name)) is not None:
            return before
        organiser_id = key.identifier("organiser") if key else new_organiser_id()
        token = key.token("ot", organiser_id) if key else new_token("ot", organiser_id)
        try:
            record = self.tournaments.create_organiser(organiser_id, name, hasher.stored(token, organiser_id, ORGANISER))
        except IntegrityError:
            # a concurrent request with the same key created it first
            if key is None or (before := self.created_with(key, name)) is None:
                raise
            return before
        return CreatedOrganiser(record, token)

    def created_with(self, key: CreationKey, name: str) -> CreatedOrganiser | None:
        """The organiser ``key`` created (its token derived again), or None;
        IdempotencyKeyReused when it was created with another name (the whole
        of its request)."""
        record = self.tournaments.get_organiser(key.identifier("organiser"))
        if record is None:
            return None
        if record.name != name:
            raise refuse_reuse()
        return CreatedOrganiser(record, key.token("ot", record.organiser_id))

    # ------------------------------------------------------------- webhooks
    def register_webhook(
        self,
        organiser: OrganiserRecord,
        url: str,
        events: Sequence[str],
        batch_id: str | None,
        key: CreationKey | None = None,
    ) -> WebhookRecord:
        """Register a webhook for the organiser's games (or one of its
        batches: then without ``log.checkpoint``, which is about every game
        of the server); the answer holds the signing secret, shown only then
        (the store keeps it sealed, :mod:`service.adapters.webhooks.sealing`).  With
        an Idempotency-Key, the webhook it already registered is answered again
        (the same request: the same URL, events and batch)."""
        if self.keys is None:
            raise RuntimeError("this organiser service was built without the keys that seal webhook secrets")
        if key is not None and (before := self._registered_with(key, url, events, batch_id)) is not None:
            return before
        unknown = sorted(set(events) - set(WEBHOOK_EVENTS))
        if unknown or not events:
            raise InvalidRequest(f"events must be some of {list(WEBHOOK_EVENTS)}")
        if batch_id is not None and LOG_CHECKPOINT in events:
            # a checkpoint covers every game of the server, not one batch's
            raise InvalidRequest(
                f"events: {LOG_CHECKPOINT} is for webhooks of all the organiser's games (without batch)",
                errors=[{"field": "events", "message": f"{LOG_CHECKPOINT} cannot be delivered for one batch"}],
            )
        refusal = None if self.private_addresses else url_refusal(url)
        if refusal is not None:
            raise InvalidRequest(f"url: {refusal}")
        if batch_id is not None:
            self.owned_batch(organiser, batch_id, as_field=True)
        # Each webhook costs every dispatcher a look at every event: one organiser
        # may not make the delivery of everybody's results slow.
        if len(self.tournaments.list_webhooks(organiser.organiser_id)) >= self.max_webhooks:
            raise LimitReached(
                f"this organiser already has {self.max_webhooks} active webhooks "
                f"({declared('webhooks_per_organiser').env}); delete one first"
            )
        ordered = [e for e in WEBHOOK_EVENTS if e in events]
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        webhook_id = key.identifier("webhook") if key else secrets.token_hex(8)
        try:
            sealed = self.keys.seal(webhook_id, secret)
            stored = self.tournaments.create_webhook(webhook_id, organiser.organiser_id, url, ordered, sealed, batch_id)
            return replace(stored, secret=secret)
        except IntegrityError:
            # a concurrent request with the same key registered it first
            if key is None or (before := self._registered_with(key, url, events, batch_id)) is None:
                raise
            return before

    def _registered_with(
        self, key: CreationKey, url: str, events: Sequence[str], batch_id: str | None
    ) -> WebhookRecord | None:
        """The webhook ``key`` registered (even if deleted since), or None;
        IdempotencyKeyReused when it was registered for another request."""
        hook = self.tournaments.get_webhook(key.identifier("webhook"))
        if hook is None:
            return None
        if (hook.url, set(hook.events), hook.batch_id) != (url, set(events), batch_id):
            raise refuse_reuse()
        secret = None if self.keys is None else self.keys.open(hook.webhook_id, hook.secret)
        if secret is None:
            raise InvalidRequest("the webhook this Idempotency-Key registered keeps a secret this server cannot "
                                 "read (sealed under another secret key): register it with a new key")
        return replace(hook, secret=secret)

    def webhooks(self, organiser: OrganiserRecord) -> tuple[WebhookRecord, ...]:
        """The organiser's active webhooks, oldest first."""
        return self.tournaments.list_webhooks(organiser.organiser_id)

    def owned_webhook(
        self, organiser: OrganiserRecord, webhook_id: str, deleted_too: bool = False
    ) -> WebhookRecord:
        """The organiser's webhook ``webhook_id``: 404 if there is none (or it
        was deleted, unless ``deleted_too``), 403 if it is another organiser's."""
        hook = self.tournaments.get_webhook(webhook_id)
        if hook is None or not (hook.active or deleted_too):
            raise NotFound(f"no webhook with id {webhook_id!r}")
        if hook.organiser_id != organiser.organiser_id:
            raise Forbidden("this webhook belongs to another organiser")
        return hook

    def delete_webhook(self, organiser: OrganiserRecord, webhook_id: str) -> None:
        """Stop the webhook; its pending deliveries are marked failed."""
        self.owned_webhook(organiser, webhook_id)
        self.tournaments.deactivate_webhook(webhook_id)

    def deliveries(
        self, organiser: OrganiserRecord, webhook_id: str, limit: int, cursor: str | None
    ) -> DeliveryPage:
        """A page of the webhook's delivery log, newest first (also once the
        webhook is deleted)."""
        self.owned_webhook(organiser, webhook_id, deleted_too=True)
        return self.delivery_log.list_deliveries(webhook_id, limit, cursor)

    # -------------------------------------------------------------- batches
    def owned_batch(self, organiser: OrganiserRecord, batch_id: str, as_field: bool = False) -> BatchRecord:
        """The organiser's batch ``batch_id``: 404 if unknown (400 when it was
        named in a request body, ``as_field``), 403 if another organiser's."""
        batch = self.tournaments.get_batch(batch_id)
        if batch is None:
            if as_field:
                raise InvalidRequest(
                    f"batch: no batch with id {batch_id!r}",
                    errors=[{"field": "batch", "message": "no such batch"}],
                )
            raise NotFound(f"no batch with id {batch_id!r}")
        if batch.organiser_id != organiser.organiser_id:
            raise Forbidden("this batch belongs to another organiser")
        return batch
