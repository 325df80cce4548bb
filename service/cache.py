"""Caches of rebuilt game state: in-process (default) or Redis.

The cache never holds truth.  An entry is ``(version, state)`` for a game;
the state of a game at a given version never changes (events are
immutable), so an entry is never *wrong*, only possibly not the newest.
Reads ask the event store for the game's current version first, so an entry
older than the store is used only as a *snapshot* (the events after it are
replayed on top) and can never be served as current; writes decide on an
entry and append with its version as the expected one, so the store refuses
them if the entry was not the newest.

With Redis (:class:`LayeredCache`), every worker keeps the states it used
last in a small LRU of its own in front of Redis: a request that finds the
version it needs there costs no Redis round trip, and Redis serves the
states other workers and hosts wrote.  Redis entries are pickled and signed
with HMAC-SHA256 so a tampered or foreign entry is ignored.  When Redis
fails, every call degrades to a miss, the failure is recorded for
``/v1/health``, and Redis is retried after a short back-off: the service
keeps answering from the event store.
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
from dataclasses import dataclass
from typing import Any

from service.lru import LRU

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
    def get(self, game_id: str, want: int | None = None) -> tuple[int, Any] | None:
        """The newest cached ``(version, state)`` of a game, or None.

        ``want`` is the version the caller needs (when it knows it): a
        layered cache answers from its local layer without asking the shared
        one when that version is there."""

    def get_local(self, game_id: str) -> tuple[int, Any] | None:
        """The entry this process holds without any round trip (None if the
        cache keeps nothing in process)."""
        return None

    @property
    def redis_client(self) -> Any:
        """The Redis client behind the cache, if any (shared counters use it)."""
        return None

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
        self._states: LRU[str, tuple[int, Any]] = LRU(max_entries)

    def get(self, game_id: str, want: int | None = None) -> tuple[int, Any] | None:
        return self._states.get(game_id)

    def get_local(self, game_id: str) -> tuple[int, Any] | None:
        return self._states.get(game_id)

    def put(self, game_id: str, version: int, state: Any) -> None:
        self._states.put(game_id, (version, state), replace=lambda old: old[0] < version)

    def __len__(self) -> int:
        return len(self._states)

    def health(self) -> CacheHealth:
        return CacheHealth(self.backend, True, f"{len(self._states)} games cached in this process")


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

    @property
    def redis_client(self) -> Any:
        return self._redis

    def get(self, game_id: str, want: int | None = None) -> tuple[int, Any] | None:
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


class LayeredCache(StateCache):
    """A process-local LRU in front of a shared cache (Redis).

    ``get`` answers from the local layer when it holds the version the
    caller wants, else asks the shared layer (and keeps what it got if that
    is newer).  ``put`` always writes the local layer, and writes the shared
    one at least every ``share_every`` versions: when the local layer did
    not hold the game, or the new version is in another block of
    ``share_every`` than the one it replaces.  So a worker that goes on
    acting on a game it holds pays a shared write only now and then, and
    another worker reading the game finds a snapshot at most
    ``share_every - 1`` events old (it replays that tail from the store).
    ``share_every=1`` writes every version.  Counters and health are the
    shared layer's."""

    def __init__(self, shared: StateCache, local: InProcessCache, share_every: int = 1) -> None:
        super().__init__()
        self.shared = shared
        self.local = local
        self.share_every = max(1, share_every)
        self.stats = shared.stats
        self.backend = shared.backend

    @property
    def redis_client(self) -> Any:
        return self.shared.redis_client

    def get(self, game_id: str, want: int | None = None) -> tuple[int, Any] | None:
        mine = self.local.get(game_id)
        if mine is not None and want is not None and mine[0] == want:
            return mine
        theirs = self.shared.get(game_id, want)
        if theirs is None:
            return mine
        if mine is None or theirs[0] > mine[0]:
            self.local.put(game_id, *theirs)
            return theirs
        return mine

    def get_local(self, game_id: str) -> tuple[int, Any] | None:
        return self.local.get(game_id)

    def put(self, game_id: str, version: int, state: Any) -> None:
        held = self.local.get(game_id)
        self.local.put(game_id, version, state)
        if held is None or held[0] // self.share_every != version // self.share_every:
            self.shared.put(game_id, version, state)

    def health(self) -> CacheHealth:
        shared = self.shared.health()
        return CacheHealth(shared.backend, shared.ok, f"{shared.detail}; {len(self.local)} games held in this process")

    def close(self) -> None:
        self.shared.close()


def open_cache(
    redis_url: str | None,
    secret: bytes,
    max_entries: int = 2048,
    local_entries: int = 256,
    share_every: int = 1,
) -> StateCache:
    """Redis fronted by a per-process LRU of ``local_entries`` games when a
    URL is configured (``local_entries=0``: Redis alone; ``share_every``:
    see :class:`LayeredCache`), else the in-process LRU of ``max_entries``
    games."""
    if redis_url:
        shared = RedisCache(redis_url, secret)
        if local_entries <= 0:
            return shared
        return LayeredCache(shared, InProcessCache(local_entries), share_every)
    return InProcessCache(max_entries)
