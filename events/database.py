"""What ``events.open_store`` returns: one database holding the event log,
the tournaments, the webhook delivery log, the deadline index, the
bot-turn index, the quarantine of damaged tails, the transparency log and
the stream tickets.

One object implements the three interfaces because some writes span them
(a batch's games are created in the batch's transaction; a webhook starts at
the log's head).  Only wiring code (the app factory, the CLI) names this
type; every other caller depends on the one interface it uses.
"""

from __future__ import annotations

from abc import ABC

from events.recorders.bot_turns import BotTurnIndex
from events.recorders.deadlines import DeadlineIndex
from events.recorders.deliveries import DeliveryLog
from events.recorders.event_log import EventReader, EventStore
from events.recorders.quarantine import QuarantineStore
from events.recorders.tickets import StreamTickets
from events.recorders.tournaments import TournamentStore
from events.recorders.transparency_log import TransparencyLog


class Database(
    EventStore, TournamentStore, DeliveryLog, DeadlineIndex, BotTurnIndex, QuarantineStore, TransparencyLog,
    StreamTickets, ABC,
):
    """An :class:`EventStore`, :class:`TournamentStore`, :class:`DeliveryLog`,
    :class:`DeadlineIndex`, :class:`BotTurnIndex`, :class:`QuarantineStore`,
    :class:`TransparencyLog` and :class:`StreamTickets` over one database."""

    @property
    def reader(self) -> EventReader:
        """Where the reads a standby may serve go (:class:`EventReader`): this
        database itself, unless a read replica was configured for it."""
        return self
