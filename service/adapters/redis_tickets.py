"""Stream tickets in Redis (:class:`events.recorders.tickets.StreamTickets`), shared by
every worker of every host when Redis is configured; the SQL stores keep them
in a table otherwise.

A ticket is one key named after its hash, holding the ticket's JSON, which
Redis expires by itself a little after the ticket (so nothing needs sweeping);
taking it is one script (read and delete), so that of two requests presenting
one ticket, one gets it.
"""

from __future__ import annotations

import json
import math
from typing import Any

from events.recorders.tickets import StreamTicket, StreamTickets
from events.records import StoreUnavailable

_TAKE = """
local found = redis.call('GET', KEYS[1])
if found then redis.call('DEL', KEYS[1]) end
return found
"""


class RedisTickets(StreamTickets):
    """Stream tickets in Redis (see the module docs); StoreUnavailable while Redis fails."""

    def __init__(self, client: Any) -> None:
        self._redis = client
        self._take = client.register_script(_TAKE)

    def put_stream_ticket(self, ticket_hash: str, ticket: StreamTicket, now: float) -> None:
        """Keep the ticket until a little after it expires."""
        value = json.dumps({"game_id": ticket.game_id, "seat": ticket.seat, "token_hash": ticket.token_hash,
                            "expires_at": ticket.expires_at})
        ttl = max(1, math.ceil(ticket.expires_at - now)) + 5
        try:
            self._redis.set(_key(ticket_hash), value, ex=ttl)
        except Exception as e:  # redis.RedisError and socket errors
            raise StoreUnavailable(f"redis: {e}") from e

    def take_stream_ticket(self, ticket_hash: str) -> StreamTicket | None:
        """Read and delete the ticket in one step."""
        try:
            found = self._take(keys=[_key(ticket_hash)])
        except Exception as e:  # redis.RedisError and socket errors
            raise StoreUnavailable(f"redis: {e}") from e
        if found is None:
            return None
        data = json.loads(found)
        return StreamTicket(str(data["game_id"]), int(data["seat"]), str(data["token_hash"]),
                            float(data["expires_at"]))


def _key(ticket_hash: str) -> str:
    return f"cablecar:stream-ticket:{ticket_hash}"
