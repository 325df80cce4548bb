"""Configuration from environment variables, with an embedded default.

With nothing set, the service stores events in a SQLite file under
``CABLECAR_DATA_DIR`` (default ``./data``) and caches rebuilt state in
process memory.  ``DATABASE_URL`` selects PostgreSQL and ``REDIS_URL`` Redis.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError as e:
        raise ValueError(f"{name} must be an integer, got {raw!r}") from e


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError as e:
        raise ValueError(f"{name} must be a number, got {raw!r}") from e


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be a boolean (true/false), got {raw!r}")


@dataclass(frozen=True)
class Settings:
    """Everything the service reads from its environment."""

    database_url: str | None = None
    redis_url: str | None = None
    data_dir: str = "data"
    #: secret used to sign cached state blobs (so a tampered cache entry is ignored)
    secret_key: str = ""
    #: base of the ``type`` URI in problem+json bodies
    problem_base: str = "https://cablecar.dev/errors/"
    #: how long one SSE connection stays open before the client reconnects
    sse_max_seconds: int = 300
    #: heartbeat interval of SSE connections
    sse_heartbeat_seconds: int = 15
    #: requests allowed per client per ``rate_limit_window`` seconds (0 = off)
    rate_limit: int = 0
    rate_limit_window: int = 60
    #: entries kept by the in-process cache
    cache_entries: int = 2048
    #: with Redis: games each worker also keeps in process, in front of Redis (0 = Redis alone)
    local_cache_entries: int = 256
    #: with Redis: a worker acting on a game it holds refreshes Redis at least every this many events
    snapshot_every: int = 16
    #: may anyone create an organiser token over HTTP?
    open_organisers: bool = True
    #: run the webhook dispatcher in a background thread of every app
    webhooks: bool = True
    #: seconds a dispatcher waits between passes when it found nothing to do
    webhook_poll_seconds: float = 1.0
    #: seconds one delivery attempt may take (connect and answer)
    webhook_timeout_seconds: float = 5.0
    #: attempts before a delivery is given up (``failed``)
    webhook_max_attempts: int = 8
    #: delay before the first retry; it doubles after each failure, up to the maximum
    webhook_backoff_seconds: float = 10.0
    webhook_backoff_max_seconds: float = 3600.0
    #: may webhooks target addresses that are not public (loopback, private networks, link-local)?
    webhook_private_addresses: bool = False
    #: gunicorn workers / threads for ``cablecar serve``
    workers: int = 2
    threads: int = 8
    extra: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read settings from ``env`` (default: ``os.environ``)."""
        env = os.environ if env is None else env
        return cls(
            database_url=env.get("DATABASE_URL") or None,
            redis_url=env.get("REDIS_URL") or None,
            data_dir=env.get("CABLECAR_DATA_DIR") or "data",
            secret_key=env.get("CABLECAR_SECRET_KEY") or "",
            problem_base=env.get("CABLECAR_PROBLEM_BASE") or "https://cablecar.dev/errors/",
            sse_max_seconds=_int(env, "CABLECAR_SSE_MAX_SECONDS", 300),
            sse_heartbeat_seconds=_int(env, "CABLECAR_SSE_HEARTBEAT_SECONDS", 15),
            rate_limit=_int(env, "CABLECAR_RATE_LIMIT", 0),
            rate_limit_window=_int(env, "CABLECAR_RATE_LIMIT_WINDOW", 60),
            cache_entries=_int(env, "CABLECAR_CACHE_ENTRIES", 2048),
            local_cache_entries=_int(env, "CABLECAR_LOCAL_CACHE_ENTRIES", 256),
            snapshot_every=_int(env, "CABLECAR_SNAPSHOT_EVERY", 16),
            open_organisers=_bool(env, "CABLECAR_OPEN_ORGANISERS", True),
            webhooks=_bool(env, "CABLECAR_WEBHOOKS", True),
            webhook_poll_seconds=_float(env, "CABLECAR_WEBHOOK_POLL_SECONDS", 1.0),
            webhook_timeout_seconds=_float(env, "CABLECAR_WEBHOOK_TIMEOUT_SECONDS", 5.0),
            webhook_max_attempts=_int(env, "CABLECAR_WEBHOOK_MAX_ATTEMPTS", 8),
            webhook_backoff_seconds=_float(env, "CABLECAR_WEBHOOK_BACKOFF_SECONDS", 10.0),
            webhook_backoff_max_seconds=_float(env, "CABLECAR_WEBHOOK_BACKOFF_MAX_SECONDS", 3600.0),
            webhook_private_addresses=_bool(env, "CABLECAR_WEBHOOK_PRIVATE_ADDRESSES", False),
            workers=_int(env, "CABLECAR_WORKERS", 2),
            threads=_int(env, "CABLECAR_THREADS", 8),
        )
