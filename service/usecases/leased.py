"""Background work that one process does at a time across every host: a
thread that takes (or renews) a named lease each round and does its work only
while it holds it (the timeout sweeper, the transparency log's publisher).

The lease lives in the store (:meth:`events.recorders.deadlines.DeadlineIndex.hold_lease`,
by the database's clock), so a crashed holder's lease lapses and another
process carries on; the others ask for it a few times per lease period, not
every round.  The holder renews it once half of it has passed (by its
estimate of the database's clock, measured again at each renewal), not every
round: a round of the sweeper (five a second) is then one query, not six.
"""

from __future__ import annotations

import logging
import secrets
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from events.migrations.apply import SchemaNotMigrated
from events.recorders.deadlines import DeadlineIndex

log = logging.getLogger(__name__)

T = TypeVar("T")


class LeasedLoop(ABC, Generic[T]):
    """Runs :meth:`work` every ``interval`` seconds while this process holds
    the lease ``lease_name`` (see the module docs)."""

    #: the lease's name in the store, and the thread's
    lease_name: str
    thread_name: str

    def __init__(self, leases: DeadlineIndex, interval: float, lease_seconds: float,
                 on_error: Callable[[Exception], None] | None = None) -> None:
        self.leases = leases
        self.interval = interval
        self.lease_seconds = lease_seconds
        self.owner = secrets.token_hex(8)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._on_error = on_error
        #: whether the last round held the lease
        self.holding = False
        #: when the holder renews it (the database's time, as estimated here)
        self._renew_at: datetime | None = None

    @abstractmethod
    def work(self) -> T:
        """One round's work, done only while the lease is held."""

    @abstractmethod
    def idle(self) -> T:
        """What a round answers when another process holds the lease."""

    def start(self) -> None:
        """Start the thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop and wait for the thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def run_once(self) -> T:
        """One round: take the lease, or renew it once half of it has passed,
        then work if held."""
        if not self.holding or self._renew_at is None or self.leases.estimated_time() >= self._renew_at:
            self.holding = False  # (until the store says otherwise: an error leaves it so)
            now = self.leases.database_time()  # also measures this process's clock against the database's
            self.holding = self.leases.hold_lease(self.lease_name, self.owner, now, self.lease_seconds)
            self._renew_at = now + timedelta(seconds=self.lease_seconds / 2) if self.holding else None
        return self.work() if self.holding else self.idle()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
            except Exception as e:  # a database outage must not end the thread
                self.holding = False
                if not isinstance(e, SchemaNotMigrated):  # the store said that once already
                    log.warning("%s: %s", self.thread_name, e)
                if self._on_error is not None:
                    self._on_error(e)
            # Only the holder works every interval; the others ask for the lease a few times per lease
            # period (a takeover waits for the lease to lapse anyway), not a query per worker every interval.
            self._stop.wait(self.interval if self.holding else max(self.interval, self.lease_seconds / 5))
