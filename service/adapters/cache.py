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
states other workers and hosts wrote.  Redis entries hold the state as JSON
(:mod:`service.adapters.statecodec`: data only, never pickle) under an HMAC-SHA256
that covers the format, the game id and the version, so a forged, copied,
truncated or undecodable entry is ignored (logged and counted in
``CacheStats.rejected``) and the state is rebuilt from the store.  When Redis
fails, every call degrades to a miss, the failure is recorded for
``/v1/health``, and Redis is retried after a short back-off: the service
keeps answering from the event store.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from domain.registry import GAMES
from service.adapters.lru import LRU
from service.adapters.prometheus import CACHE_LOOKUPS
from service.adapters.secret_key import cache_key
from service.adapters.statecodec import FORMAT, StateCodec, Undecodable, UnsupportedState
from service.config import Settings

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
    #: shared entries ignored because their signature, game, version or contents did not check out
    rejected: int = 0

    def __setattr__(self, name: str, value: int) -> None:
        # every count also goes to the process's metrics (cablecar_cache_lookups), as it grows
        grown = value - getattr(self, name, 0)
        object.__setattr__(self, name, value)
        if grown > 0:
            CACHE_LOOKUPS.labels(name).inc(grown)


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

    def forget(self, game_id: str) -> None:  # noqa: B027 - nothing to forget in a cache that keeps nothing
        """Drop what is kept of a game, so that its next read rebuilds it from
        the store (its stored record turned out damaged: the store shows it)."""

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

    def forget(self, game_id: str) -> None:
        self._states.discard(game_id)

    def __len__(self) -> int:
        return len(self._states)

    def health(self) -> CacheHealth:
        return CacheHealth(self.backend, True, f"{len(self._states)} games cached in this process")


class RedisCache(StateCache):
    """States in Redis, shared by every worker and host.

    Keys: ``cablecar:state:<game_id>`` -> ``version:8 | format:2 | mac:32 | state``,
    the version and format as ASCII digits, the state as the codec's JSON and
    the MAC an HMAC-SHA256 of the format, the game id, the version and the
    state.  A Lua script makes ``put`` keep the newest version only (of
    this format).
    """

    backend = "redis"
    # Keeps the newest version of this format; an entry in another format (another
    # release, or planted to block writes) is replaced.
    _PUT = """
local cur = redis.call('GETRANGE', KEYS[1], 0, 9)
local held = tonumber(string.sub(cur, 1, 8))
if string.sub(cur, 9, 10) == ARGV[4] and held ~= nil and held >= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1
"""
    # Drops an entry that failed its checks, unless it changed meanwhile, so that the
    # next put can replace it (a forged entry with a huge version would block puts).
    _DROP = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
    _FORMAT = b"%02d" % FORMAT
    _HEADER = 8 + 2 + 32
    #: longer entries are not ours (a state is a few kilobytes)
    MAX_ENTRY_BYTES = 1 << 20

    def __init__(self, url: str, secret: bytes, ttl_seconds: int = 86400, retry_after: float = 2.0) -> None:
        super().__init__()
        import redis

        self._redis = redis.Redis.from_url(
            url, socket_timeout=0.5, socket_connect_timeout=0.5, health_check_interval=30
        )
        self._secret = secret
        self._codec = StateCodec(GAMES.values())
        self._ttl = ttl_seconds
        self._retry_after = retry_after
        self._down_until = 0.0
        self._lock = threading.Lock()
        self._put_script = self._redis.register_script(self._PUT)
        self._drop_script = self._redis.register_script(self._DROP)

    def _available(self) -> bool:
        return time.monotonic() >= self._down_until

    def _failed(self, err: Exception) -> None:
        with self._lock:
            self.stats.errors += 1
            self._down_until = time.monotonic() + self._retry_after
        log.warning("redis cache unavailable, serving from the event store: %s", err)

    def _key(self, game_id: str) -> str:
        return f"cablecar:state:{game_id}"

    def _sign(self, game_id: str, version_part: bytes, body: bytes) -> bytes:
        game = game_id.encode("utf-8", "surrogatepass")
        # Length-prefixed, so that no other (game, version, state) gives the same input.
        head = b"cablecar-state/%s|%d:%s|%s|" % (self._FORMAT, len(game), game, version_part)
        return hmac.new(self._secret, head + body, hashlib.sha256).digest()

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
        if raw is None:
            return None
        try:
            return self._open(game_id, raw)
        except Undecodable as e:
            self._reject(game_id, raw, str(e))
            return None

    def _open(self, game_id: str, raw: Any) -> tuple[int, Any] | None:
        """The ``(version, state)`` of an entry; None for an entry of another
        format (written by another release: not an attack, just not ours)."""
        if not isinstance(raw, bytes) or not self._HEADER < len(raw) <= self.MAX_ENTRY_BYTES:
            raise Undecodable("truncated or oversized entry")
        version_part, form, sig, body = raw[:8], raw[8:10], raw[10:42], raw[42:]
        if form != self._FORMAT and form.isdigit():
            return None
        if not hmac.compare_digest(sig, self._sign(game_id, version_part, body)):
            raise Undecodable("bad signature: forged, tampered, copied from another game or version, or pickled by an old release")
        if not version_part.isdigit():  # a signed entry is ours: this is a bug, not an attack
            raise Undecodable("signed entry with a malformed version")
        return int(version_part), self._codec.decode(body)

    def _reject(self, game_id: str, raw: Any, why: str) -> None:
        with self._lock:
            self.stats.rejected += 1
        log.warning("ignoring the cached state of game %s (%s); rebuilding it from the event store", game_id, why)
        try:
            self._drop_script(keys=[self._key(game_id)], args=[raw])
        except Exception as e:
            self._failed(e)

    def put(self, game_id: str, version: int, state: Any) -> None:
        if not self._available() or not 0 <= version < 10**8:  # the version field has 8 digits
            return
        try:
            body = self._codec.encode(state)
        except UnsupportedState as e:  # a game registered after start-up: kept in process only
            log.warning("not sharing the state of game %s: %s", game_id, e)
            return
        version_part = b"%08d" % version
        blob = version_part + self._FORMAT + self._sign(game_id, version_part, body) + body
        try:
            self._put_script(keys=[self._key(game_id)], args=[blob, version, self._ttl, self._FORMAT])
        except Exception as e:
            self._failed(e)

    def forget(self, game_id: str) -> None:
        if not self._available():
            return
        try:
            self._redis.delete(self._key(game_id))
        except Exception as e:
            self._failed(e)

    def health(self) -> CacheHealth:
        try:
            self._redis.ping()
        except Exception as e:
            self._failed(e)
            # The error names Redis's address: it is in the server log (_failed), never in this public answer.
            return CacheHealth(self.backend, False, "redis unreachable; serving from the event store")
        self._down_until = 0.0
        rejected = f"; {self.stats.rejected} forged or unreadable entries ignored" if self.stats.rejected else ""
        return CacheHealth(self.backend, True, "redis reachable" + rejected)

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

    def forget(self, game_id: str) -> None:
        self.local.forget(game_id)
        self.shared.forget(game_id)

    def health(self) -> CacheHealth:
        shared = self.shared.health()
        return CacheHealth(shared.backend, shared.ok, f"{shared.detail}; {len(self.local)} games held in this process")

    def close(self) -> None:
        self.shared.close()


def open_cache(settings: Settings) -> StateCache:
    """The cache ``settings`` describe: with ``REDIS_URL``, Redis (entries
    signed with :func:`service.adapters.secret_key.cache_key`) fronted by a per-process LRU
    of ``local_cache_entries`` games (``0``: Redis alone) writing Redis every
    ``snapshot_every`` versions (see :class:`LayeredCache`); else the
    in-process LRU of ``cache_entries`` games."""
    if settings.redis_url:
        shared = RedisCache(settings.redis_url, cache_key(settings))
        if settings.local_cache_entries <= 0:
            return shared
        return LayeredCache(shared, InProcessCache(settings.local_cache_entries), settings.snapshot_every)
    return InProcessCache(settings.cache_entries)
