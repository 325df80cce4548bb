"""The deadline index: when each timed game's earliest running deadline
falls, so that the timeout sweeper finds due games with one indexed query
instead of replaying every game in play.

The index is a lookup aid, not a truth: the deadline is derived from the
game's events (see :mod:`domain.clocks`), written after each append of a
timed game, and re-derived by whoever acts on it.  A row that is stale or
missing delays a sweep, never a wrong timeout (every read or action of the
game finds an overdue seat too, see :mod:`service.usecases.timekeeper`).

``database_time`` is the clock every timeout decision uses: the database's
own (``clock_timestamp()`` on PostgreSQL; on SQLite the process is the
database), so workers whose clocks disagree still agree on whether a
deadline has passed.

The events' ``recorded_at`` is that clock too: a worker stamps it from
``estimated_time`` (its own clock plus an offset it measured from the
database's), and the append refuses a time more than a second from the
database's own (PostgreSQL: migration ``0030_one_clock.sql``), so a worker
whose clock is off neither starts nor ends a deadline early or late.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime


class DeadlineIndex(ABC):
    """Each timed game's next deadline, the sweeper's lease, and the database's clock."""

    @abstractmethod
    def set_deadline(self, game_id: str, version: int, due: datetime | None) -> None:
        """Record that at ``version`` the game's earliest deadline is ``due``
        (None: nothing runs).  An older version never overwrites a newer one."""

    @abstractmethod
    def due_games(self, now: datetime, limit: int = 100) -> list[str]:
        """Games whose recorded deadline is at or before ``now``, earliest first."""

    @abstractmethod
    def hold_lease(self, name: str, owner: str, now: datetime, seconds: float) -> bool:
        """Take or renew the lease ``name`` for ``owner`` until ``now + seconds``;
        False while another owner holds an unexpired lease.  Every process of
        every instance competes for one lease, so one sweeper works at a time."""

    @abstractmethod
    def database_time(self) -> datetime:
        """The current time by the database's clock (UTC, aware)."""

    @abstractmethod
    def estimated_time(self) -> datetime:
        """The database's clock as this process estimates it without asking
        (its own clock plus the last measured offset); what appends stamp."""
