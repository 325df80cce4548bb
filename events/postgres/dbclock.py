"""This process's estimate of the database's clock (issue 25, "one clock").

Events are signed before the append and the signature covers
``recorded_at``, so the worker stamps the time; it stamps the database's
time as estimated here, its own clock plus an offset measured from
``clock_timestamp()`` (the error is at most half the round trip), and the
append functions judge it (migration ``0030_one_clock.sql``).  Measured on
first use, whenever the store reads the database's clock (the timeout
sweeper does so several times a second) and after a refusal."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from events.encoding.timestamps import Clock


class DatabaseClock:
    """``local`` plus the offset last measured."""

    def __init__(self, local: Clock) -> None:
        self.local = local
        #: the database's clock minus ``local`` (None: not measured yet)
        self.offset: timedelta | None = None

    def measure(self, read: Callable[[], tuple[datetime, Any]]) -> tuple[datetime, Any]:
        """Run ``read`` (a query answering the database's clock_timestamp() and
        anything else) and set the offset from it; its answer."""
        before = self.local()
        now, extra = read()
        self.offset = now - (before + (self.local() - before) / 2)
        return now, extra

    def estimate(self, measure: Callable[[], object]) -> datetime:
        """The database's time as estimated (calling ``measure`` first if never measured)."""
        if self.offset is None:
            measure()
        assert self.offset is not None
        return self.local() + self.offset
