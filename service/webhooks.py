"""Webhook deliveries: the body, its signature, sending it, and the
dispatcher that drives deliveries from the event log.

The dispatcher repeats two steps, both safe to run in any number of threads,
processes and hosts at once:

1. **scan**: read the global log after the dispatch cursor
   (``store.read_all``), turn ``game.started`` (a game's first event) and
   ``game.finished`` (the last event of a game whose row says ``finished``)
   into one delivery per matching webhook, and commit them together with the
   new cursor (``store.record_deliveries``).  A dispatcher that dies before
   that commit leaves the cursor where it was, so the next one re-reads the
   same events: no finished game is ever missed, and the unique key
   (webhook, game, event) keeps a delivery from being created twice.  With
   no active webhook the log is not read at all: the cursor moves to the
   head, unless a webhook was registered since the pass began (registration
   and cursor moves serialise on the cursor, so a webhook registered later
   starts after the new cursor).
2. **deliver**: lease the due deliveries in the database
   (``store.claim_deliveries``), POST each signed body, and record the
   attempt: ``delivered`` on a 2xx answer, otherwise retried after an
   exponential backoff, and ``failed`` after ``max_attempts``.

A delivery is sent at least once: when a receiver answers after our timeout,
or a dispatcher dies between sending and recording, the same delivery id is
sent again.  Receivers deduplicate on the ``X-CableCar-Delivery`` header.
Delivering never blocks a player's action: actions only append events, and
the dispatcher reads them later from the log.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import socket
import ssl
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from domain.core import STATUS_FINISHED
from events.database import Database
from events.deliveries import AttemptOutcome, ClaimedDelivery, NewDelivery
from events.store import GameRecord, StoredEvent, StoreError
from events.timestamps import Clock, format_timestamp, system_clock
from events.tournaments import WebhookRecord
from service.config import Settings
from service.games import GameService

log = logging.getLogger("cablecar.webhooks")

JSON = Any
#: The event types a webhook can subscribe to.
GAME_STARTED = "game.started"
GAME_FINISHED = "game.finished"
WEBHOOK_EVENTS = (GAME_STARTED, GAME_FINISHED)
USER_AGENT = "cablecar-webhooks/1"
#: How much of a receiver's answer is read (and thrown away) per attempt.
MAX_ANSWER_BYTES = 64 * 1024


def sign(secret: str, body: bytes) -> str:
    """The ``X-CableCar-Signature`` value of ``body``: ``sha256=`` and the hex
    HMAC-SHA256 of the raw body keyed with the webhook's secret."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def signature_matches(secret: str, body: bytes, header: str | None) -> bool:
    """Constant-time check of a received ``X-CableCar-Signature`` header."""
    return header is not None and hmac.compare_digest(sign(secret, body), header)


def delivery_body(
    delivery_id: str, event: str, created_at: str, record: GameRecord, result: JSON | None
) -> str:
    """The JSON text of a delivery (sent, and signed, byte for byte the same on
    every attempt): ``{id, type, created_at, game: {id, type, status, batch,
    result?}}``; ``result`` only for a finished game."""
    game: dict[str, JSON] = {
        "id": record.game_id,
        "type": record.game_type,
        "status": record.status,
        "batch": record.metadata.get("batch"),
    }
    if result is not None:
        game["result"] = result
    body = {"id": delivery_id, "type": event, "created_at": created_at, "game": game}
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


# -- sending ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SendResult:
    """The receiver's answer to one POST: its status, or why there was none."""

    status_code: int | None
    error: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        """True for a 2xx answer."""
        return self.status_code is not None and 200 <= self.status_code < 300


#: Sends one body: ``(url, body, headers, timeout) -> SendResult``.
Sender = Callable[[str, bytes, Mapping[str, str], float], SendResult]


PRIVATE_SETTING = "CABLECAR_WEBHOOK_PRIVATE_ADDRESSES"


def not_public(address: str) -> bool:
    """Whether ``address`` (an IP) is not globally routable: loopback,
    private, link-local, shared, reserved, multicast or unspecified."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def url_refusal(url: str) -> str | None:
    """Why a webhook ``url`` may not be registered when private addresses are
    not allowed: a literal non-public IP or a ``localhost`` name (names are
    resolved again before every attempt).  None if nothing is wrong."""
    host = (urllib.parse.urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return f"{host} is this machine; webhooks go to public addresses (operators: {PRIVATE_SETTING})"
    try:
        private = not_public(host)
    except ValueError:
        return None  # a name: checked when resolved
    if private:
        return f"{host} is not a public address; webhooks go to public addresses (operators: {PRIVATE_SETTING})"
    return None


def _connect(addresses: Sequence[str], port: int, timeout: float | None) -> socket.socket:
    """A socket to the first of ``addresses`` that answers (in resolver order)."""
    error: OSError = OSError("no address")
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout)
        except OSError as e:
            error = e
    raise error


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """HTTP to addresses resolved (and checked) beforehand."""

    def __init__(self, host: str, addresses: Sequence[str], port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._addresses = tuple(addresses)

    def connect(self) -> None:
        self.sock = _connect(self._addresses, self.port, self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to addresses resolved (and checked) beforehand, with the
    certificate still verified against the URL's host name."""

    def __init__(self, host: str, addresses: Sequence[str], port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._addresses = tuple(addresses)

    def connect(self) -> None:
        sock = _connect(self._addresses, self.port, self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def http_send(
    url: str, body: bytes, headers: Mapping[str, str], timeout: float, allow_private: bool = True
) -> SendResult:
    """POST ``body`` to ``url`` and report the answer's status.  Redirects are
    not followed (a 3xx is a failed attempt) and no proxy is used; network
    failures (refused, timeout, DNS, TLS) become an error text, never an
    exception.  ``https`` certificates are verified.

    The host name is resolved once and the connection made to that address,
    so what was checked is what is reached: without ``allow_private`` an
    address that is not public (:func:`not_public`) is refused before
    anything is sent, whatever the name resolves to at that moment."""
    started = time.monotonic()

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return SendResult(None, f"not an http(s) URL: {url!r}", 0)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        addresses = [str(info[4][0]) for info in socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)]
        private = [a for a in addresses if not_public(a)]
        if private and not allow_private:
            return SendResult(
                None, f"{parts.hostname} resolves to {private[0]}, not a public address ({PRIVATE_SETTING})", elapsed()
            )
        pinned = _PinnedHTTPSConnection if parts.scheme == "https" else _PinnedHTTPConnection
        connection = pinned(parts.hostname, addresses, port, timeout)
        try:
            connection.request("POST", path, body=body, headers=dict(headers))
            answer = connection.getresponse()
            answer.read(MAX_ANSWER_BYTES)
            status = int(answer.status)
        finally:
            connection.close()
    except (OSError, http.client.HTTPException, ValueError) as e:
        return SendResult(None, f"{type(e).__name__}: {e}", elapsed())
    return SendResult(status, None if 200 <= status < 300 else f"HTTP {status}", elapsed())


# -- policy ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DispatchPolicy:
    """How deliveries are made and retried.

    The ``n``-th retry waits ``first_retry_seconds * 2 ** (n - 1)`` seconds,
    at most ``max_retry_seconds``; after ``max_attempts`` attempts the
    delivery is ``failed``."""

    poll_seconds: float = 1.0
    timeout_seconds: float = 5.0
    max_attempts: int = 8
    first_retry_seconds: float = 10.0
    max_retry_seconds: float = 3600.0
    #: events read from the log per scan
    scan_batch: int = 500
    #: deliveries leased per claim
    claim_batch: int = 10
    #: may deliveries go to addresses that are not public (loopback, private networks, ...)?
    private_addresses: bool = False

    def __post_init__(self) -> None:
        for name in ("poll_seconds", "timeout_seconds", "first_retry_seconds", "max_retry_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        for name in ("max_attempts", "scan_batch", "claim_batch"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)!r}")

    @classmethod
    def from_settings(cls, settings: Settings) -> DispatchPolicy:
        """The policy configured by the ``CABLECAR_WEBHOOK_*`` settings."""
        return cls(
            poll_seconds=settings.webhook_poll_seconds,
            timeout_seconds=settings.webhook_timeout_seconds,
            max_attempts=settings.webhook_max_attempts,
            first_retry_seconds=settings.webhook_backoff_seconds,
            max_retry_seconds=settings.webhook_backoff_max_seconds,
            private_addresses=settings.webhook_private_addresses,
        )

    def retry_delay(self, attempts: int) -> float:
        """Seconds to wait after ``attempts`` failed attempts (1, 2, ...)."""
        return min(self.max_retry_seconds, self.first_retry_seconds * 2.0 ** (attempts - 1))

    @property
    def lease_seconds(self) -> float:
        """How long a claim holds its deliveries: long enough to send all of
        them one after the other, so nobody else sends them meanwhile."""
        return self.claim_batch * (self.timeout_seconds + 1.0) + 30.0


# -- the dispatcher --------------------------------------------------------------------


@dataclass(frozen=True)
class PassReport:
    """What one dispatcher pass did."""

    events_read: int
    deliveries_created: int
    attempts: int

    @property
    def busy(self) -> bool:
        """Whether there may be more to do right away."""
        return self.events_read > 0 or self.attempts > 0


class WebhookDispatcher:
    """Turns the event log into webhook deliveries and sends them (see the
    module docs).  One instance per process is enough; several are safe."""

    def __init__(
        self,
        store: Database,
        games: GameService,
        policy: DispatchPolicy | None = None,
        sender: Sender | None = None,
        clock: Clock = system_clock,
    ) -> None:
        self.store = store
        self.games = games
        self.policy = policy or DispatchPolicy()
        self._send = sender or functools.partial(http_send, allow_private=self.policy.private_addresses)
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ scan
    def scan(self) -> tuple[int, int]:
        """Turn the next page of the log into deliveries; ``(events read,
        deliveries created)``.  Nothing is created if another dispatcher
        moved the cursor meanwhile (it created the same deliveries)."""
        state = self.store.dispatch_state()
        if state.head <= state.cursor:
            return 0, 0
        now = self._clock()
        if not state.active:
            # Nobody to tell: move the cursor to the head without reading the
            # log, unless a webhook was registered meanwhile (then the next
            # pass reads it).  Not "busy": the next pass waits poll_seconds.
            self.store.record_deliveries(state.cursor, state.head, [], now, state.webhooks)
            return 0, 0
        events = self.store.read_all(state.cursor, self.policy.scan_batch)
        if not events:
            return 0, 0
        deliveries = self._deliveries_for(events, format_timestamp(now))
        recorded = self.store.record_deliveries(
            state.cursor, events[-1].position, deliveries, now, state.webhooks
        )
        return len(events), len(deliveries) if recorded else 0

    def _deliveries_for(self, events: list[StoredEvent], created_at: str) -> list[NewDelivery]:
        # Only a game's first event (game.started) and the last event of each
        # game in this page (maybe the one that finished it) can matter.
        last: dict[str, StoredEvent] = {}
        first: dict[str, StoredEvent] = {}
        for event in events:
            last[event.game_id] = event
            if event.seq == 1:
                first[event.game_id] = event
        webhooks: dict[str, tuple[WebhookRecord, ...]] = {}
        deliveries: list[NewDelivery] = []
        for game_id, final in last.items():
            record = self.store.get_game(game_id)
            organiser = record.metadata.get("organiser")
            if not isinstance(organiser, str):
                continue
            if organiser not in webhooks:
                webhooks[organiser] = self.store.list_webhooks(organiser)
            occurred: list[tuple[str, StoredEvent]] = []
            if game_id in first:
                occurred.append((GAME_STARTED, first[game_id]))
            if record.status == STATUS_FINISHED and final.seq == record.version:
                occurred.append((GAME_FINISHED, final))
            for kind, event in occurred:
                for hook in webhooks[organiser]:
                    if self._wants(hook, kind, event, record):
                        deliveries.append(self._new_delivery(hook, kind, record, created_at))
        return deliveries

    @staticmethod
    def _wants(hook: WebhookRecord, kind: str, event: StoredEvent, record: GameRecord) -> bool:
        return (
            kind in hook.events
            and event.position > hook.from_position
            and (hook.batch_id is None or hook.batch_id == record.metadata.get("batch"))
        )

    def _new_delivery(
        self, hook: WebhookRecord, kind: str, record: GameRecord, created_at: str
    ) -> NewDelivery:
        delivery_id = uuid.uuid4().hex
        result = self._result(record) if kind == GAME_FINISHED else None
        body = delivery_body(delivery_id, kind, created_at, record, result)
        return NewDelivery(delivery_id, hook.webhook_id, record.game_id, kind, body)

    def _result(self, record: GameRecord) -> JSON | None:
        try:
            loaded = self.games.load(record.game_id)
        except StoreError:
            raise
        except Exception:  # a game the rules cannot replay: deliver without its result
            log.exception("cannot rebuild game %s for its webhook result", record.game_id)
            return None
        return loaded.game.result(loaded.state)

    # --------------------------------------------------------------- deliver
    def deliver_due(self) -> int:
        """Lease the due deliveries and make one attempt at each; the number of attempts."""
        owner = f"dispatcher-{uuid.uuid4().hex}"
        claimed = self.store.claim_deliveries(
            owner, self._clock(), self.policy.lease_seconds, self.policy.claim_batch
        )
        for delivery in claimed:
            self.attempt(delivery, owner)
        return len(claimed)

    def attempt(self, delivery: ClaimedDelivery, owner: str) -> AttemptOutcome:
        """Send one leased delivery and record how it went."""
        body = delivery.body.encode("utf-8")
        number = delivery.attempts + 1
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-CableCar-Delivery": delivery.delivery_id,
            "X-CableCar-Event": delivery.event,
            "X-CableCar-Attempt": str(number),
            "X-CableCar-Signature": sign(delivery.secret, body),
        }
        sent = self._send(delivery.url, body, headers, self.policy.timeout_seconds)
        now = self._clock()
        if sent.ok:
            outcome = AttemptOutcome(now, "delivered", sent.status_code, None, sent.duration_ms)
        elif number >= self.policy.max_attempts:
            outcome = AttemptOutcome(now, "failed", sent.status_code, sent.error, sent.duration_ms)
        else:
            retry = now + timedelta(seconds=self.policy.retry_delay(number))
            outcome = AttemptOutcome(now, "pending", sent.status_code, sent.error, sent.duration_ms, retry)
        if not self.store.record_attempt(delivery.delivery_id, owner, outcome):
            log.warning("delivery %s: lease lost before the attempt was recorded", delivery.delivery_id)
        elif outcome.state != "delivered":
            log.info(
                "delivery %s to %s: attempt %d failed (%s), now %s",
                delivery.delivery_id,
                delivery.url,
                number,
                sent.error or sent.status_code,
                outcome.state,
            )
        return outcome

    # ------------------------------------------------------------------ loop
    def run_once(self) -> PassReport:
        """One pass: scan the log, then attempt the due deliveries."""
        read, created = self.scan()
        attempts = self.deliver_due()
        return PassReport(read, created, attempts)

    def run(self, stop: threading.Event | None = None) -> None:
        """Pass after pass until ``stop`` is set or the store is closed;
        passes follow each other at once while there is work, otherwise
        ``poll_seconds`` apart.  Store failures are logged and retried."""
        stop = stop or self._stop
        while not stop.is_set() and not self.store.closed:
            try:
                busy = self.run_once().busy
            except StoreError as e:
                if self.store.closed:
                    break
                log.warning("webhook dispatcher: the store failed (%s); retrying", e)
                busy = False
            except Exception:
                log.exception("webhook dispatcher: unexpected error; retrying")
                busy = False
            if not busy:
                stop.wait(self.policy.poll_seconds)

    def start(self) -> None:
        """Run :meth:`run` in a daemon thread (idempotent)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="cablecar-webhooks", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Ask the background thread to stop and wait for it (at most ``timeout`` s)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        """Whether the background thread is alive."""
        return self._thread is not None and self._thread.is_alive()
