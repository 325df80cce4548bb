"""The bot-turn index: which games have a server-played seat that must act
now, and which bot runner holds each of them, so that runners find their
work with one indexed query and never act in one game at the same time.

Like the deadline index (:mod:`events.deadlines`) it is a lookup aid, not a
truth: a row is written after each append of a game with bot seats and the
runner re-derives who must act from the game's events.  A stale row costs
a runner one look at a game; acting twice is impossible anyway (every bot
move is appended with the version it was decided on as the expected version
and an idempotency key), the lease only keeps runners from wasting work on
the same game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime


class BotTurnIndex(ABC):
    """Per game with bot seats: since when a bot seat waits, and the runner's lease on it."""

    @abstractmethod
    def set_bot_turn(self, game_id: str, version: int, waiting_since: datetime | None) -> None:
        """Record that at ``version`` a bot seat of the game must act since
        ``waiting_since`` (None: no bot seat must act).  An older version
        never overwrites a newer one."""

    @abstractmethod
    def claim_bot_turns(
        self, owner: str, now: datetime, seconds: float, waiting_before: datetime, limit: int
    ) -> list[str]:
        """Take the lease of up to ``limit`` games whose bot seats have waited
        since ``waiting_before`` or earlier and that no other runner holds
        (its lease lapsed at ``now``), until ``now + seconds``; their ids,
        longest waiting first.  A game is given to one owner at a time."""

    @abstractmethod
    def release_bot_turn(self, game_id: str, owner: str) -> None:
        """Give back ``owner``'s lease on the game (no-op if it holds none)."""

    @abstractmethod
    def drop_bot_turn(self, game_id: str) -> None:
        """No bot seat of the game waits any more, and no runner holds it (a
        damaged game takes no move): it is claimed again only once a newer
        version is recorded (:meth:`set_bot_turn`, e.g. after ``cablecar quarantine``)."""
