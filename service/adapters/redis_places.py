"""Event-stream places in Redis, shared by every worker of every host
(:class:`events.recorders.counts.SharedPlaces`; the embedded store keeps them in its
file instead).

A holder's places in a group are one sorted set, member = place id, score =
the time the place lapses unless renewed; taking a place is one Lua script
(drop the lapsed members, count, add), so that two workers never both take
the last place.  A place id carries its set's name, for renewing and freeing.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from typing import Any

from events.recorders.counts import SharedPlaces
from events.records import StoreUnavailable

#: seconds a failing Redis is left alone before it is tried again
RETRY_SECONDS = 5.0

_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


class RedisPlaces(SharedPlaces):
    """Places in Redis (see the module docs); StoreUnavailable while Redis fails."""

    def __init__(self, client: Any) -> None:
        self._redis = client
        self._take = client.register_script(_TAKE)
        self._down_until = 0.0

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < self._down_until:
            raise StoreUnavailable("redis is unavailable (retried shortly)")
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # redis.RedisError and socket errors
            self._down_until = time.monotonic() + RETRY_SECONDS
            raise StoreUnavailable(f"redis: {e}") from e

    def take_place(self, group: str, holder: str, limit: int, until: float, now: float) -> str | None:
        """A place for ``holder`` in ``group`` unless it holds ``limit`` already."""
        digest = hashlib.sha256(f"{group}\0{holder}".encode("utf-8", "surrogatepass")).hexdigest()[:32]
        place_id = f"{digest}:{secrets.token_hex(8)}"
        ttl = max(1, math.ceil(until - now)) + 60
        taken = self._call(self._take, keys=[_key(place_id)], args=[now, limit, until, place_id, ttl])
        return place_id if int(taken) else None

    def renew_place(self, place_id: str, until: float) -> None:
        """Hold the place until ``until`` (nothing if it lapsed)."""
        self._call(self._redis.zadd, _key(place_id), {place_id: until}, xx=True)

    def free_place(self, place_id: str) -> None:
        """Give the place back."""
        self._call(self._redis.zrem, _key(place_id), place_id)


def _key(place_id: str) -> str:
    return f"cablecar:places:{place_id.split(':', 1)[0]}"
