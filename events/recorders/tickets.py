"""Stream tickets: short-lived, single-use permissions to open one seat's
event stream, for clients that cannot send an ``Authorization`` header (a
browser's ``EventSource``).

Only a keyed hash of a ticket is kept (the caller hashes it), with the game,
the seat and the hash of the seat token that asked for it, so that a ticket
outlives neither its lifetime nor that token.  Taking a ticket removes it in
the same statement that reads it: of two requests presenting one ticket, one
gets it.  Expired tickets are swept by the writes themselves.

Every process of the server must see the same tickets: the SQL stores keep
them in a table (migrations ``0060``/``0040_stream_tickets.sql``), Redis
(``service/adapters/redis_tickets.py``) when it is configured.  Times are Unix
seconds from the caller's clock.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True)
class StreamTicket:
    """What a ticket opens: ``seat`` of ``game_id`` while the seat's token hash
    is still ``token_hash``, until ``expires_at``."""

    game_id: str
    seat: int
    token_hash: str
    expires_at: float


class StreamTickets(ABC):
    """Stream tickets shared by every process (see the module docs)."""

    @abstractmethod
    def put_stream_ticket(self, ticket_hash: str, ticket: StreamTicket, now: float) -> None:
        """Keep ``ticket`` under ``ticket_hash`` (and forget those expired at ``now``)."""

    @abstractmethod
    def take_stream_ticket(self, ticket_hash: str) -> StreamTicket | None:
        """Remove the ticket kept under ``ticket_hash`` and answer it, atomically
        (None: no such ticket, or another caller took it first).  The caller
        checks its expiry."""
