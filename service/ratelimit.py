"""A fixed-window request limiter per client (token, else address).

Off by default (``CABLECAR_RATE_LIMIT=0``).  With Redis configured the
counters live in Redis, so the limit holds across workers and hosts; a Redis
failure lets requests through (availability over limiting).
"""

from __future__ import annotations

import hashlib
import threading
import time

from flask import Flask, request

from service.cache import StateCache
from service.config import Settings
from service.errors import RateLimited


class _Counter:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[str, int], int] = {}

    def incr(self, key: str, window: int) -> int:
        with self._lock:
            if len(self._counts) > 10000:
                self._counts = {k: v for k, v in self._counts.items() if k[1] == window}
            n = self._counts.get((key, window), 0) + 1
            self._counts[(key, window)] = n
            return n


def install(app: Flask, settings: Settings, cache: StateCache) -> None:
    """Register the limiter when ``settings.rate_limit`` is positive."""
    if settings.rate_limit <= 0:
        return
    limit, window_len = settings.rate_limit, max(1, settings.rate_limit_window)
    local = _Counter()
    redis_client = cache.redis_client

    @app.before_request
    def _limit() -> None:
        if request.path in ("/v1/health",):
            return
        who = request.headers.get("Authorization") or request.remote_addr or "?"
        key = hashlib.sha256(who.encode()).hexdigest()[:32]
        now = time.time()
        window = int(now // window_len)
        count = 0
        if redis_client is not None:
            try:
                rkey = f"cablecar:rl:{key}:{window}"
                pipe = redis_client.pipeline()
                pipe.incr(rkey)
                pipe.expire(rkey, window_len + 1)
                count = int(pipe.execute()[0])
            except Exception:
                count = local.incr(key, window)
        else:
            count = local.incr(key, window)
        if count > limit:
            retry = max(1, int((window + 1) * window_len - now + 0.999))
            raise RateLimited(f"more than {limit} requests in {window_len} s; retry in {retry} s", retry)
