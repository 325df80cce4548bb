"""The bot-turn index: which games have a server-played seat that must act
now, and which bot runner holds each of them, so that runners find their
work with one indexed query and never act in one game at the same time.

Like the deadline index (:mod:`events.recorders.deadlines`) it is a lookup aid, not a
truth: a row is written after each append of a game with bot seats and the
runner re-derives who must act from the game's events.  A stale row costs
a runner one look at a game; acting twice is impossible anyway (every bot
move is appended with the version it was decided on as the expected version
and an idempotency key), the lease only keeps runners from wasting work on
the same game.

Fairness (issue 36): each row names its game's creator (an organiser, or a
hash of an anonymous creator's address; none: the game is a creator of its
own), and claims go round-robin across creators: every creator's longest
waiting game first, the creator served longest ago first, so that one
creator's hundreds of games never starve another's one.  Runners also keep
a heartbeat here (a lease row of their own), so that the server can refuse
a bot seat nobody would play.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime


class BotTurnIndex(ABC):
    """Per game with bot seats: since when a bot seat waits, and the runner's lease on it."""

    @abstractmethod
    def set_bot_turn(
        self, game_id: str, version: int, waiting_since: datetime | None, creator: str | None = None
    ) -> None:
        """Record that at ``version`` a bot seat of the game must act since
        ``waiting_since`` (None: no bot seat must act).  An older version
        never overwrites a newer one.  ``creator`` (who the claims' round-robin
        counts the game for) is kept from the first write that names one."""

    @abstractmethod
    def claim_bot_turns(
        self, owner: str, now: datetime, seconds: float, waiting_before: datetime, limit: int
    ) -> list[str]:
        """Take the lease of up to ``limit`` games whose bot seats have waited
        since ``waiting_before`` or earlier and that no other runner holds
        (its lease lapsed at ``now``), until ``now + seconds``; their ids.
        A game is given to one owner at a time.  The order is round-robin
        across creators: each creator's games are ranked longest waiting
        first (the ones held by runners count), and games are taken rank by
        rank, within a rank the creator whose game a runner claimed longest
        ago (or never) first."""

    @abstractmethod
    def release_bot_turn(self, game_id: str, owner: str) -> None:
        """Give back ``owner``'s lease on the game (no-op if it holds none)."""

    @abstractmethod
    def drop_bot_turn(self, game_id: str) -> None:
        """No bot seat of the game waits any more, and no runner holds it (a
        damaged game takes no move): it is claimed again only once a newer
        version is recorded (:meth:`set_bot_turn`, e.g. after ``cablecar quarantine``)."""

    @abstractmethod
    def beat_bot_runner(self, owner: str, now: datetime, seconds: float) -> None:
        """Runner ``owner`` is alive until ``now + seconds`` (its heartbeat, a
        lease of its own; ``seconds`` 0: it stopped)."""

    @abstractmethod
    def live_bot_runners(self, now: datetime) -> int:
        """How many runners' heartbeats run past ``now``."""
