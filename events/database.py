"""What ``events.open_store`` returns: one database holding the event log,
the tournaments and the webhook delivery log.

One object implements the three interfaces because some writes span them
(a batch's games are created in the batch's transaction; a webhook starts at
the log's head).  Only wiring code (the app factory, the CLI) names this
type; every other caller depends on the one interface it uses.
"""

from __future__ import annotations

from abc import ABC

from events.deliveries import DeliveryLog
from events.store import EventStore
from events.tournaments import TournamentStore


class Database(EventStore, TournamentStore, DeliveryLog, ABC):
    """An :class:`EventStore`, :class:`TournamentStore` and :class:`DeliveryLog`
    over one database."""
