"""``log.checkpoint`` deliveries: the webhook dispatcher's second cursor, over
the transparency log's published checkpoints (issue 35).

An organiser-wide webhook (no batch) subscribed to ``log.checkpoint`` gets
one delivery per checkpoint published after it was registered (tree size
above its ``from_tree_size``), so that a tournament keeps its own copy of
each; the body's ``checkpoint`` is what ``GET /v1/log/checkpoint`` answers.

Checkpoints are published one at a time, in tree-size order (one transaction
each, under the publishers' lock), so the dispatchers follow them by tree
size, with a cursor of their own in ``dispatch_cursors``, exactly as they
follow the global log: the deliveries of a page of checkpoints and the
cursor's move commit together (``store.record_deliveries`` with
:data:`~events.recorders.deliveries.CHECKPOINTS_CURSOR`), only if nobody moved the
cursor or registered a webhook meanwhile, and a checkpoint's delivery is
unique per webhook (its occurrence is the tree size).  Several dispatchers on
several hosts therefore create each delivery once, and one restarted later
delivers what was published while none ran.  The deliveries themselves are
then leased, signed, sent, retried and logged like any other
(:mod:`service.usecases.webhook_deliveries`).
"""

from __future__ import annotations

import uuid

from events.encoding.timestamps import Clock, format_timestamp, system_clock
from events.recorders.deliveries import CHECKPOINTS_CURSOR, DeliveryLog, NewDelivery
from events.recorders.tournaments import TournamentStore, WebhookRecord
from events.recorders.transparency_log import PublishedCheckpoint, TransparencyLog
from service.adapters.webhooks.hmac import LOG_CHECKPOINT, checkpoint_body
from service.adapters.webhooks.sealing import WebhookKeys
from service.usecases.checkpoints import checkpoint_json


class CheckpointDeliveries:
    """Turns published checkpoints into ``log.checkpoint`` deliveries (see the module docs)."""

    def __init__(self, deliveries: DeliveryLog, tournaments: TournamentStore, log: TransparencyLog,
                 keys: WebhookKeys, page: int, clock: Clock = system_clock) -> None:
        self.deliveries = deliveries
        self.tournaments = tournaments
        self.log = log
        #: the MAC each delivery carries (:mod:`service.adapters.webhooks.sealing`)
        self.keys = keys
        self.page = page
        self._clock = clock

    def scan(self) -> tuple[int, int]:
        """Turn the next page of published checkpoints into deliveries;
        ``(checkpoints read, deliveries created)``.  Nothing is created if
        another dispatcher moved the cursor, or a webhook was registered,
        meanwhile (the next pass decides again)."""
        state = self.deliveries.checkpoint_dispatch_state()
        if state.head <= state.cursor:
            return 0, 0
        now = self._clock()
        hooks = [h for h in self.tournaments.organiser_wide_webhooks() if LOG_CHECKPOINT in h.events] if state.active else []
        if not hooks:
            # nobody subscribed: move past every checkpoint without reading them
            self.deliveries.record_deliveries(state.cursor, state.head, [], now, state.webhooks, cursor=CHECKPOINTS_CURSOR)
            return 0, 0
        published = self.log.checkpoints_after(state.cursor, self.page)
        if not published:
            return 0, 0
        created_at = format_timestamp(now)
        deliveries = [self.keys.vouched(_delivery(hook, cp, created_at)) for cp in published for hook in hooks
                      if cp.tree_size > hook.from_tree_size]
        recorded = self.deliveries.record_deliveries(state.cursor, published[-1].tree_size, deliveries, now,
                                                state.webhooks, cursor=CHECKPOINTS_CURSOR)
        return len(published), len(deliveries) if recorded else 0


def _delivery(hook: WebhookRecord, cp: PublishedCheckpoint, created_at: str) -> NewDelivery:
    delivery_id = uuid.uuid4().hex
    body = checkpoint_body(delivery_id, created_at, checkpoint_json(cp))
    return NewDelivery(delivery_id, hook.webhook_id, None, LOG_CHECKPOINT, body, occurrence=cp.tree_size)
