"""When deliveries are attempted, and what a failed attempt leads to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from events.recorders.deliveries import AttemptOutcome
from service.adapters.webhooks.transport import SendResult
from service.config import Settings


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
    #: attempts in flight at once per dispatcher (one thread each)
    senders: int = 8
    #: deliveries one webhook may have in flight at once (over every dispatcher)
    per_webhook: int = 2
    #: deliveries one organiser's webhooks may have in flight at once (over every
    #: dispatcher): half a dispatcher's senders, so that one organiser's flood of
    #: hanging receivers leaves the other half to everyone else
    per_organiser: int = 4
    #: may deliveries go to addresses that are not public (loopback, private networks, ...)?
    private_addresses: bool = False

    def __post_init__(self) -> None:
        for name in ("poll_seconds", "timeout_seconds", "first_retry_seconds", "max_retry_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        for name in ("max_attempts", "scan_batch", "claim_batch", "senders", "per_webhook", "per_organiser"):
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

    def outcome(self, sent: SendResult, attempt: int, now: datetime) -> AttemptOutcome:
        """What attempt number ``attempt`` (1, 2, ...), answered by ``sent``
        at ``now``, makes of its delivery: delivered, retried later, or failed."""
        if sent.ok:
            return AttemptOutcome(now, "delivered", sent.status_code, None, sent.duration_ms)
        if attempt >= self.max_attempts:
            return AttemptOutcome(now, "failed", sent.status_code, sent.error, sent.duration_ms)
        retry = now + timedelta(seconds=self.retry_delay(attempt))
        return AttemptOutcome(now, "pending", sent.status_code, sent.error, sent.duration_ms, retry)
