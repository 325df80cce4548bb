"""Counts every process of one server shares, where there is no Redis to
keep them: the embedded server's rate limits and event-stream caps.

Two kinds, both short-lived and outside the event log:

* fixed-window **counters**: ``add_count`` adds to the counter of a key in one
  window and answers the new total (a rate limit compares it with its limit);
* held **places**: ``take_place`` gives a holder (a client address) a place in
  a group (its open event streams) unless it already holds ``limit`` of them.
  A place is held until a time its holder keeps pushing back
  (``renew_place``), so that the places of a process killed without a word
  free themselves.

Times are Unix seconds from the caller's clock: every process on one SQLite
file runs on one machine, hence one clock.
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class SharedPlaces(ABC):
    """Places held by every process on one store (see the module docs)."""

    @abstractmethod
    def take_place(self, group: str, holder: str, limit: int, until: float, now: float) -> str | None:
        """A new place of ``holder`` in ``group``, held until ``until``, if the
        holder's places still held at ``now`` are fewer than ``limit``: its id;
        None when the holder already holds ``limit``."""

    @abstractmethod
    def renew_place(self, place_id: str, until: float) -> None:
        """Hold the place until ``until`` (nothing if it is gone)."""

    @abstractmethod
    def free_place(self, place_id: str) -> None:
        """Give the place back (nothing if it is gone)."""


class SharedCounts(SharedPlaces, ABC):
    """Counters and places shared by every process on one store (see the module docs)."""

    @abstractmethod
    def add_count(self, key: str, window: int, cost: int, expires_at: float, now: float) -> int:
        """Add ``cost`` to the counter of ``key`` in ``window`` at ``now``; its
        new total.  The counter may be forgotten once ``expires_at`` has passed."""
