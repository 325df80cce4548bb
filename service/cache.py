"""Caches of rebuilt game state: in-process (default) or Redis.

The cache never holds truth.  An entry is ``(version, state)`` for a game;
the service always asks the event store for the game's current version
first, so an entry older than the store is used only as a *snapshot* (the
events after it are replayed on top) and can never be served as current.
Entries are pickled and signed with HMAC-SHA256 so a tampered or foreign
entry is ignored.  When Redis fails, every call degrades to a miss, the
failure is recorded for ``/v1/health``, and Redis is retried after a short
back-off: the service keeps answering from the event store.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import pickle
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CacheHealth:
    """What ``/v1/health`` says about the cache."""

    backend: str
    ok: bool
    detail: str


@dataclass
class CacheStats:
    """Counters for benchmarks and health."""

    hits: int = 0
    partial_hits: int = 0
    misses: int = 0
    errors: int = 0


class StateCache(ABC):
    """Where rebuilt states are kept between requests."""

    backend = "none"

    def __init__(self) -> None:
        self.stats = CacheStats()

    @abstractmethod
    def get(self, game_id: str) -> tuple[int, Any] | None:
        """The newest cached ``(version, state)`` of a game, or None."""

    @abstractmethod
    def put(self, game_id: str, version: int, state: Any) -> None:
        """Remember ``state`` at ``version`` unless a newer one is cached."""

    @abstractmethod
    def health(self) -> CacheHealth:
        """Current health of the cache backend."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources."""


class InProcessCache(StateCache):
    """A thread-safe LRU of states in this process (the embedded default)."""

    backend = "in-process"

    def __init__(self, max_entries: int = 2048) -> None:
        super().__init__()
        self._max = max_entries
        self._data: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> tuple[int, Any] | None:
        with self._lock:
            entry = self._data.get(game_id)
            if entry is not None:
                self._data.move_to_end(game_id)
            return entry

    def put(self, game_id: str, version: int, state: Any) -> None:
        with self._lock:
            old = self._data.get(game_id)
            if old is not None and old[0] >= version:
                return
            self._data[game_id] = (version, state)
            self._data.move_to_end(game_id)
            while len(self._data) > self._max:
                self._data.popitem(last=False)

    def health(self) -> CacheHealth:
        return CacheHealth(self.backend, True, f"{len(self._data)} games cached in this process")


class RedisCache(StateCache):
    """States in Redis, shared by every worker and host.

    Keys: ``cablecar:state:<game_id>`` -> ``version:8 bytes | hmac:32 | pickle``.
    A Lua script makes ``put`` keep the newest version only.
    """

    backend = "redis"
    _PUT = """
local cur = redis.call('GETRANGE', KEYS[1], 0, 7)
if cur ~= '' and tonumber(cur) ~= nil and tonumber(cur) >= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1
"""

    def __init__(self, url: str, secret: bytes, ttl_seconds: int = 86400, retry_after: float = 2.0) -> None:
        super().__init__()
        import redis

        self._redis = redis.Redis.from_url(
            url, socket_timeout=0.5, socket_connect_timeout=0.5, health_check_interval=30
        )
        self._secret = secret
        self._ttl = ttl_seconds
        self._retry_after = retry_after
        self._down_until = 0.0
        self._last_error = ""
        self._lock = threading.Lock()
        self._put_script = self._redis.register_script(self._PUT)

    def _available(self) -> bool:
        return time.monotonic() >= self._down_until

    def _failed(self, err: Exception) -> None:
        with self._lock:
            self.stats.errors += 1
            self._last_error = f"{type(err).__name__}: {err}"
            self._down_until = time.monotonic() + self._retry_after
        log.warning("redis cache unavailable, serving from the event store: %s", err)

    def _key(self, game_id: str) -> str:
        return f"cablecar:state:{game_id}"

    def _sign(self, body: bytes) -> bytes:
        return hmac.new(self._secret, body, hashlib.sha256).digest()

    def get(self, game_id: str) -> tuple[int, Any] | None:
        if not self._available():
            return None
        try:
            raw = self._redis.get(self._key(game_id))
        except Exception as e:  # redis.RedisError and socket errors
            self._failed(e)
            return None
        self._last_error = ""
        if not isinstance(raw, bytes) or len(raw) < 40:
            return None
        version_part, sig, body = raw[:8], raw[8:40], raw[40:]
        if not hmac.compare_digest(sig, self._sign(version_part + body)):
            log.warning("ignoring a cache entry with a bad signature for game %s", game_id)
            return None
        try:
            return int(version_part), pickle.loads(body)
        except Exception:  # an entry from an incompatible code version
            return None

    def put(self, game_id: str, version: int, state: Any) -> None:
        if not self._available():
            return
        body = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        version_part = f"{version:08d}".encode()
        blob = version_part + self._sign(version_part + body) + body
        try:
            self._put_script(keys=[self._key(game_id)], args=[blob, version, self._ttl])
        except Exception as e:
            self._failed(e)

    def health(self) -> CacheHealth:
        try:
            self._redis.ping()
        except Exception as e:
            self._failed(e)
            return CacheHealth(self.backend, False, f"redis unreachable ({self._last_error}); serving from the event store")
        self._down_until = 0.0
        return CacheHealth(self.backend, True, "redis reachable")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._redis.close()


def open_cache(redis_url: str | None, secret: bytes, max_entries: int = 2048) -> StateCache:
    """Redis when a URL is configured, else the in-process LRU."""
    if redis_url:
        return RedisCache(redis_url, secret)
    return InProcessCache(max_entries)
