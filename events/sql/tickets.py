"""Stream tickets (:mod:`events.recorders.tickets`) on both SQL backends (the same statements)."""

from __future__ import annotations

from events.recorders.tickets import StreamTicket, StreamTickets
from events.sql.database import SqlRecorder


class SqlStreamTickets(SqlRecorder, StreamTickets):
    """:class:`StreamTickets` in the ``stream_tickets`` table."""

    def put_stream_ticket(self, ticket_hash: str, ticket: StreamTicket, now: float) -> None:
        d = self.dialect
        with self._transaction() as cur:
            cur.execute(d.sql("DELETE FROM stream_tickets WHERE expires_at < ?"), (now,))
            cur.execute(
                d.sql("INSERT INTO stream_tickets (ticket_hash, game_id, seat, token_hash, expires_at)"
                      " VALUES (?, ?, ?, ?, ?)"),
                (ticket_hash, ticket.game_id, ticket.seat, ticket.token_hash, ticket.expires_at),
            )

    def take_stream_ticket(self, ticket_hash: str) -> StreamTicket | None:
        d = self.dialect
        with self._transaction() as cur:
            row = cur.execute(
                d.sql("DELETE FROM stream_tickets WHERE ticket_hash = ?"
                      " RETURNING game_id, seat, token_hash, expires_at"),
                (ticket_hash,),
            ).fetchone()
        if row is None:
            return None
        return StreamTicket(str(row[0]), int(row[1]), str(row[2]), float(row[3]))
