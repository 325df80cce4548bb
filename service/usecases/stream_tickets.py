"""Stream tickets: a seat's event stream opened without an ``Authorization``
header (a browser's ``EventSource`` cannot send one).

``POST /v1/games/{id}/stream-tickets`` with the seat token answers a fresh
ticket, valid once and for at most :data:`LIFETIME` seconds, that opens that
seat's stream (``GET /v1/games/{id}/events/stream?ticket=...``).  The ticket is
bound to the seat and to the seat token's current hash: once that token is
rotated away the ticket opens nothing (and a stream it opened ends, like one
opened with the token).  Only a keyed hash of the ticket is stored
(:class:`service.adapters.tokens.TokenHasher`, bound to the game), where every
process sees it (:mod:`events.recorders.tickets`); redeeming it removes it atomically.
A used, expired, unknown or rotated-away ticket is 401.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from events.encoding.timestamps import format_timestamp
from events.recorders.tickets import StreamTicket, StreamTickets
from events.records import GameRecord
from service.errors import Unauthorized
from service.usecases.auth import TokenCheck, game_caller, require_seat

#: seconds a ticket is valid (at most: the contract's 60)
LIFETIME = 60.0
#: the hasher's slot for stream tickets (a seat's is its number, a host's ``host``)
SLOT = "stream-ticket"
#: the longest ticket accepted in a query (a fresh one is 43 characters)
TICKET_MAX = 100


@dataclass(frozen=True)
class IssuedTicket:
    """A fresh ticket (shown only here, once) and when it lapses."""

    ticket: str
    expires_at: str


@dataclass(frozen=True)
class SeatOpened:
    """What a redeemed ticket opens: the seat, and the token hash its stream lives by."""

    seat: int
    token_hash: str


@dataclass
class TicketOffice:
    """Issues and redeems stream tickets (see the module docs).  ``lifetime``
    and ``clock`` (Unix seconds) are the server's; tests shorten the one and
    move the other."""

    tickets: StreamTickets
    check: TokenCheck
    lifetime: float = LIFETIME
    clock: Callable[[], float] = field(default=time.time)

    def issue(self, record: GameRecord, header: str | None) -> IssuedTicket:
        """A ticket for the seat whose token ``header`` holds: 401 without a
        token or with a wrong one, 403 for a host or organiser token."""
        seat = require_seat(game_caller(self.check, record, header))
        token_hash = str(record.metadata["seat_token_hashes"][seat])
        ticket = secrets.token_urlsafe(32)
        now = self.clock()
        expires_at = now + min(self.lifetime, LIFETIME)
        self.tickets.put_stream_ticket(
            self._hash(ticket, record.game_id), StreamTicket(record.game_id, seat, token_hash, expires_at), now
        )
        return IssuedTicket(ticket, format_timestamp(datetime.fromtimestamp(expires_at, UTC)))

    def redeem(self, record: GameRecord, ticket: str) -> SeatOpened:
        """The seat ``ticket`` opens in ``record``'s game, used up now; 401
        for a used, expired, unknown or rotated-away ticket."""
        found = self.tickets.take_stream_ticket(self._hash(ticket, record.game_id))
        if found is None or found.game_id != record.game_id:
            raise Unauthorized("this stream ticket is not valid (unknown, or already used): ask for a new one")
        if found.expires_at <= self.clock():
            raise Unauthorized("this stream ticket has expired: ask for a new one")
        hashes = record.metadata.get("seat_token_hashes", [])
        if found.seat >= len(hashes) or str(hashes[found.seat]) != found.token_hash:
            raise Unauthorized("the seat token this ticket was issued to was rotated away: ask with the new one")
        return SeatOpened(found.seat, found.token_hash)

    def _hash(self, ticket: str, game_id: str) -> str:
        return self.check.hasher.stored(ticket, game_id, SLOT)
