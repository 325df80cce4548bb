"""Fixed-window rate limits, counted per client address (or per organiser).

Three policies, each a setting (``Rate``: ``30/minute``, ``5/second``,
``off``):

- ``create``: games an address creates without an organiser token
  (``POST /v1/games`` counts one, a batch counts its tables), and, counted
  apart at the same rate, organisers it creates (``POST /v1/organisers``);
- ``organiser``: games one organiser creates, and games all organiser tokens
  together create from one address (so minting tokens buys nothing);
- ``bot_seat``: bot seats an address asks for in the games it creates
  without an organiser token (organisers' games are not counted: their
  creation limit covers them);
- ``stream``: event streams an address opens;
- ``audit``: audits an address asks for (the costliest read);

plus the general ``CABLECAR_RATE_LIMIT`` requests per address per window on
every route but health (``0``: off).

The client is the connecting address, or, behind ``CABLECAR_TRUSTED_PROXIES``
proxies, the address the outermost trusted proxy saw; never anything else the
client sends (a random bearer value shares its address's bucket).  IPv6
addresses count per /64, the block one subscriber usually holds.

With Redis the counters live there (one atomic MULTI/EXEC of INCRBY and
EXPIRE), so every worker and host shares them.  Without Redis, on the
embedded SQLite store, they live in the store's file
(:class:`events.recorders.counts.SharedCounts`), which every worker of the server
shares: the limits count per server there too.  With neither (PostgreSQL
without Redis), or while the shared place is unreachable, each process counts
alone: the failure is logged and the limit degrades to per-worker instead of
failing open or refusing everyone.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, g, request

from events.recorders.counts import SharedCounts
from events.records import StoreError
from service.config import Settings, declared
from service.errors import RateLimited

log = logging.getLogger(__name__)

_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(second|minute|hour|day)s?\s*$")
#: seconds a failed Redis (or shared store) is left alone before it is tried again
REDIS_RETRY_SECONDS = 5.0


@dataclass(frozen=True)
class Rate:
    """At most ``limit`` units per window of ``seconds``."""

    limit: int
    seconds: int

    @classmethod
    def parse(cls, text: str, env: str) -> Rate | None:
        """``"30/minute"`` → ``Rate(30, 60)``; ``"off"`` → None (no limit)."""
        if text.strip().lower() == "off":
            return None
        match = _RATE.match(text.lower())
        if match is None or int(match.group(1)) < 1:
            raise ValueError(f"{env} must be like '30/minute' (per second, minute, hour or day) or 'off', got {text!r}")
        return cls(int(match.group(1)), _UNITS[match.group(2)])


@dataclass(frozen=True)
class Verdict:
    """One charge against a bucket: what the ``RateLimit-Policy`` and
    ``RateLimit`` headers (and the deprecated ``RateLimit-*`` ones) say."""

    limit: int
    remaining: int
    reset: int  # seconds until the window ends
    allowed: bool
    policy: str = ""
    window: int = 0  # seconds of the window


class LocalCounts:
    """Fixed-window counters of this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[str, int], int] = {}

    def add(self, key: str, window: int, cost: int) -> int:
        with self._lock:
            if len(self._counts) > 50_000:
                # drop every window but the newest ones instead of growing without bound
                self._counts = {k: v for k, v in self._counts.items() if k[1] >= window}
            count = self._counts.get((key, window), 0) + cost
            self._counts[(key, window)] = count
            return count


class Limiter:
    """Charges buckets in Redis when it is given (in process while it is
    unreachable); without Redis in the store's shared counters when given (the
    embedded store; in process while they fail); else in process."""

    def __init__(
        self, redis_client: Any = None, clock: Callable[[], float] = time.time, shared: SharedCounts | None = None
    ) -> None:
        self._redis = redis_client
        self._shared = shared
        self._clock = clock
        self._local = LocalCounts()
        self._redis_down_until = 0.0
        self._shared_down_until = 0.0

    def _add(self, key: str, window: int, cost: int, ttl: int) -> int:
        now = self._clock()
        if self._redis is not None:
            if now < self._redis_down_until:
                return self._local.add(key, window, cost)
            name = f"cablecar:rl:{key}:{window}"
            try:
                pipe = self._redis.pipeline(transaction=True)
                pipe.incrby(name, cost)
                pipe.expire(name, ttl)
                return int(pipe.execute()[0])
            except Exception as e:  # redis.RedisError and socket errors
                self._redis_down_until = now + REDIS_RETRY_SECONDS
                log.warning("rate limit counters unavailable in redis, counting per worker: %s", e)
        elif self._shared is not None and now >= self._shared_down_until:
            try:
                return self._shared.add_count(key, window, cost, now + ttl, now)
            except StoreError as e:
                self._shared_down_until = now + REDIS_RETRY_SECONDS
                log.warning("rate limit counters unavailable in the store, counting per worker: %s", e)
        return self._local.add(key, window, cost)

    def charge(self, policy: str, bucket: str, rate: Rate, cost: int = 1) -> Verdict:
        """Count ``cost`` units against ``bucket`` of ``policy``."""
        now = self._clock()
        window = int(now // rate.seconds)
        digest = hashlib.sha256(bucket.encode()).hexdigest()[:32]
        count = self._add(f"{policy}:{digest}", window, cost, rate.seconds + 1)
        reset = max(1, int((window + 1) * rate.seconds - now + 0.999))
        return Verdict(rate.limit, max(0, rate.limit - count), reset, count <= rate.limit, policy, rate.seconds)


def client_address(remote_addr: str | None, forwarded_for: str | None, trusted_proxies: int) -> str:
    """The address to count against: with ``trusted_proxies`` N > 0, the
    N-th address from the right of ``X-Forwarded-For`` (the one the outermost
    trusted proxy saw connect; anything left of it the client may have
    written); otherwise, or when that entry is missing or no address, the
    connecting address.  IPv6 addresses are cut to their /64."""
    chosen = remote_addr or "unknown"
    if trusted_proxies > 0 and forwarded_for:
        hops = [hop.strip() for hop in forwarded_for.split(",")]
        if len(hops) >= trusted_proxies and _address(hops[-trusted_proxies]) is not None:
            chosen = hops[-trusted_proxies]
    address = _address(chosen)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return chosen if address is None else str(address)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


@dataclass(frozen=True)
class RateLimits:
    """The policies of one app and the limiter that counts them."""

    limiter: Limiter
    trusted_proxies: int
    general: Rate | None
    create: Rate | None
    organiser: Rate | None
    stream: Rate | None
    audit: Rate | None = None
    bot_seat: Rate | None = None
    #: RateLimit-Policy by (endpoint, health check): see route_policy_header
    _headers: dict[tuple[str | None, bool], str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings, limiter: Limiter) -> RateLimits:
        def rate(name: str) -> Rate | None:
            return Rate.parse(getattr(settings, name), declared(name).env)

        general = Rate(settings.rate_limit, max(1, settings.rate_limit_window)) if settings.rate_limit > 0 else None
        return cls(limiter, settings.trusted_proxies, general, rate("create_rate_limit"),
                   rate("organiser_create_rate_limit"), rate("stream_rate_limit"), rate("audit_rate_limit"),
                   rate("bot_seat_rate_limit"))

    def client(self) -> str:
        """The current request's client address."""
        return client_address(request.remote_addr, request.headers.get("X-Forwarded-For"), self.trusted_proxies)

    def _charge(self, policy: str, bucket: str, rate: Rate | None, cost: int, what: str) -> None:
        if rate is None:
            return
        verdict = self.limiter.charge(policy, bucket, rate, cost)
        shown = g.get("cablecar_rate_limit")
        if shown is None or verdict.remaining <= shown.remaining or not verdict.allowed:
            g.cablecar_rate_limit = verdict  # the deprecated headers show the tightest policy
        counted = g.setdefault("cablecar_rate_limits", {})
        earlier = counted.get(policy)
        if earlier is None or verdict.remaining <= earlier.remaining or not verdict.allowed:
            counted[policy] = verdict  # one item per policy: its tightest bucket
        if not verdict.allowed:
            raise RateLimited(f"more than {rate.limit} {what} in {rate.seconds} s; retry in {verdict.reset} s",
                              verdict.reset)

    def charge_creation(self, games: int, organiser_id: str | None) -> None:
        """Count ``games`` new games: against the organiser and the address's
        organiser bucket with an organiser token, else the address's anonymous
        bucket.  RateLimited when over, before anything is written."""
        client = self.client()
        if organiser_id is None:
            self._charge("create", client, self.create, games, "games created from this address")
            return
        self._charge("organiser", f"id:{organiser_id}", self.organiser, games, "games created by this organiser")
        self._charge("organiser", f"address:{client}", self.organiser, games,
                     "games created by organisers from this address")

    def charge_bot_seats(self, seats: int, organiser_id: str | None) -> None:
        """Count ``seats`` bot seats of a new game created without an organiser
        token against the address; RateLimited before anything is written."""
        if organiser_id is None and seats > 0:
            self._charge("bot-seat", self.client(), self.bot_seat, seats, "bot seats asked for from this address")

    def charge_organiser_creation(self, organiser_id: str | None) -> None:
        """Count one new organiser as game creation counts a game: against the
        address (no organiser token), or against the creating organiser and
        the address's organiser bucket; RateLimited before anything is written."""
        client = self.client()
        if organiser_id is None:
            self._charge("create-organiser", client, self.create, 1, "organisers created from this address")
            return
        self._charge("organiser-organiser", f"id:{organiser_id}", self.organiser, 1,
                     "organisers created by this organiser")
        self._charge("organiser-organiser", f"address:{client}", self.organiser, 1,
                     "organisers created by organisers from this address")

    def charge_audit(self) -> None:
        """Count one audit asked for (``GET /v1/games/{id}/audit``)."""
        self._charge("audit", self.client(), self.audit, 1, "audits from this address")

    def route_policies(self, endpoint: str | None, path: str) -> list[tuple[str, Rate]]:
        """The policies (switched on) that may count a request of this route."""
        names = list(_ROUTE_POLICIES.get(endpoint or "", ()))
        if path != "/v1/health":
            names.append("general")
        rates = {"create": self.create, "create-organiser": self.create, "organiser": self.organiser,
                 "organiser-organiser": self.organiser, "bot-seat": self.bot_seat, "stream": self.stream,
                 "audit": self.audit, "general": self.general}
        return [(name, rate) for name in names if (rate := rates[name]) is not None]

    def route_policy_header(self, endpoint: str | None, path: str) -> str:
        """``RateLimit-Policy`` for a route none of whose policies counted the
        request ("" for none): the same for every request of the route, so
        made once (every answer carries it)."""
        key = (endpoint, path == "/v1/health")
        header = self._headers.get(key)
        if header is None:
            header = policy_header([(n, r.limit, r.seconds) for n, r in self.route_policies(endpoint, path)])
            self._headers[key] = header
        return header

    def charge_request(self) -> None:
        """Count one request against the general limit."""
        if self.general is not None:
            self._charge("general", self.client(), self.general, 1, "requests from this address")

    def charge_stream(self) -> None:
        """Count one event stream opened."""
        if self.stream is not None:
            self._charge("stream", self.client(), self.stream, 1, "event streams opened from this address")


#: ``app.extensions`` key of the app's :class:`RateLimits`
EXTENSION = "cablecar.limits"
#: endpoints each request of which opens an event stream
_STREAM_ENDPOINTS = ("games.stream_events",)
#: the policies each limited route may count (besides ``general``, which counts every route but health)
_ROUTE_POLICIES: dict[str, tuple[str, ...]] = {
    "games.create_game": ("create", "organiser", "bot-seat"),
    "batches.create_batch": ("organiser",),
    "organisers.create_organiser": ("create-organiser", "organiser-organiser"),
    "records.audit": ("audit",),
    "games.stream_events": ("stream",),
}


def policy_header(items: list[tuple[str, int, int]]) -> str:
    """``RateLimit-Policy`` (draft-ietf-httpapi-ratelimit-headers): each policy
    as ``"name";q=quota;w=window-seconds``."""
    return ", ".join(f'"{name}";q={quota};w={window}' for name, quota, window in items)


def state_header(verdicts: list[Verdict]) -> str:
    """``RateLimit``: each counted policy as ``"name";r=remaining;t=seconds-to-reset``."""
    return ", ".join(f'"{v.policy}";r={v.remaining};t={v.reset}' for v in verdicts)


def limits(app: Flask) -> RateLimits:
    """The rate limits installed on ``app``."""
    found = app.extensions[EXTENSION]
    assert isinstance(found, RateLimits)
    return found


def install(app: Flask, settings: Settings, redis_client: Any, shared: SharedCounts | None = None) -> None:
    """Build the app's limits (an invalid rate setting stops start-up), count
    the general and the stream limit before each request, and add
    ``RateLimit-Policy`` to every answer of a limited route (the policies
    that counted it, or, when none did, e.g. a refusal before counting, the
    ones that may), ``RateLimit`` to each answer a policy counted, and the
    deprecated ``RateLimit-Limit``/``-Remaining``/``-Reset`` (the tightest
    policy) to each answer a policy counted.  ``shared``: the
    counters every worker shares when there is no Redis (the embedded store)."""
    found = RateLimits.from_settings(settings, Limiter(redis_client, shared=shared))
    app.extensions[EXTENSION] = found

    @app.before_request
    def _count() -> None:
        if request.path == "/v1/health":
            return
        found.charge_request()
        if request.endpoint in _STREAM_ENDPOINTS:
            found.charge_stream()

    @app.after_request
    def _headers(resp: Response) -> Response:
        counted = list(g.get("cablecar_rate_limits", {}).values())
        if counted:
            resp.headers["RateLimit-Policy"] = policy_header([(v.policy, v.limit, v.window) for v in counted])
            resp.headers["RateLimit"] = state_header(counted)
        else:
            policy = found.route_policy_header(request.endpoint, request.path)
            if policy:
                resp.headers["RateLimit-Policy"] = policy
        verdict = g.get("cablecar_rate_limit")
        if isinstance(verdict, Verdict):
            resp.headers["RateLimit-Limit"] = str(verdict.limit)
            resp.headers["RateLimit-Remaining"] = str(verdict.remaining)
            resp.headers["RateLimit-Reset"] = str(verdict.reset)
        return resp
