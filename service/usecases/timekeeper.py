"""Timeouts: a seat whose deadline passed is timed out by an appended event.

The deadline comes from the game's clocks (:mod:`domain.clocks`, derived
from the events' timestamps).  A ``seat_timed_out`` is appended with the
version the deadline was read at as the expected version, so it can never
race a real action: whichever reaches the log first wins and the other gets
the ordinary stale-version answer.

One clock decides: the database's.  Whether a deadline has passed is read
from it (:meth:`events.recorders.deadlines.DeadlineIndex.database_time`; the free
:meth:`~events.recorders.deadlines.DeadlineIndex.estimated_time` only says when asking
is worth it), every event's ``recorded_at`` is judged by it inside the append
(so the deadlines derived from the events are its too), and the append itself
refuses a timeout before its deadline and an action after one
(:class:`events.records.OutsideDeadline`).  A worker's own clock, however far
off, never times a seat out early nor lets an action in late.

Two ways find due timeouts, so correctness never depends on the first:

* :class:`Sweeper`: one background thread per process, of which exactly one
  across every worker and instance works at a time (it holds the lease
  ``timeouts`` in the database); it looks up due games in the deadline index
  several times a second;
* :meth:`Timekeeper.settle`: every read or action of a game first appends
  the timeouts already due in it.

A scheduled game's start is due the same way: while it waits, its entry in
the index is its ``starts_at``, and settling it appends ``game_started``
(refused by the append before that time by the database's clock), so every
table of a round starts at its time whether anyone looks or not.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from domain.clocks import Clocks
from domain.custody import GameStarted
from events.recorders.deadlines import DeadlineIndex
from events.records import GameNotFound, StaleVersion
from service.adapters import prometheus
from service.errors import ServiceError
from service.usecases.leased import LeasedLoop
from service.usecases.loaded import Loaded
from service.usecases.queries import GameQueries

log = logging.getLogger(__name__)

#: the sweeper's lease, renewed every loop; another process takes over this long after a holder dies
LEASE_SECONDS = 5.0
LEASE_NAME = "timeouts"


class Appender(Protocol):
    """What the timekeeper needs of the commands (:class:`service.usecases.commands.GameCommands`),
    which themselves read through the queries: declared here so that
    commands → timekeeper is the only direction."""

    def append_events(
        self, loaded: Loaded, seat: int | None, domain_events: Sequence[Any], due: float | None = None
    ) -> Loaded: ...


class Timekeeper:
    """Keeps the deadline index current and appends the timeouts that are due."""

    def __init__(self, queries: GameQueries, index: DeadlineIndex, commands: Appender | None = None) -> None:
        """``commands`` append the timeouts (None: this timekeeper only records deadlines)."""
        self.queries = queries
        self.index = index
        self.commands = commands

    def record(self, loaded: Loaded) -> None:
        """Write ``loaded``'s next deadline, or its scheduled start, to the
        index (timed or scheduled games only)."""
        # an untimed game is in the index only while it waits for its start: not a write per action after
        if not loaded.clocks.control.timed and not loaded.scheduled:
            return
        due = None if loaded.finished else _due(loaded.clocks)
        moment = None if due is None else datetime.fromtimestamp(due, UTC)
        self.index.set_deadline(loaded.record.game_id, loaded.version, moment)

    def maybe_due(self, clocks: Clocks) -> bool:
        """Whether a deadline of ``clocks`` may have passed (by the estimated database clock)."""
        due = _due(clocks)
        return due is not None and due <= self.index.estimated_time().timestamp()

    def settle(self, loaded: Loaded) -> Loaded:
        """``loaded`` after appending every timeout already due in it (the
        newest state, also when another writer got there first)."""
        assert self.commands is not None, "a timekeeper that settles is given the commands"
        if loaded.scheduled:
            loaded = self._started(loaded)
        for _ in range(loaded.definition.seat_count(loaded.state)):
            due = None if loaded.finished else loaded.clocks.deadline()
            # the estimate first: it is free; then the database decides
            if due is None or self.index.estimated_time().timestamp() < due:
                return loaded
            now = self.index.database_time().timestamp()
            passed = [(seat, at) for seat, at in loaded.clocks.deadlines() if at <= now]
            if not passed:
                return loaded
            # seats that missed the same deadline (a simultaneous setup step) go out together
            seats = [seat for seat, at in passed if at == passed[0][1]]
            events = loaded.definition.time_out(loaded.state, seats)
            try:
                loaded = self.commands.append_events(loaded, None, events, passed[0][1])
            except StaleVersion:  # another writer was first: go on from the newest state
                loaded = self.queries.load(loaded.record.game_id, settle=False)
        return loaded

    def _started(self, loaded: Loaded) -> Loaded:
        """``loaded`` after its ``game_started``, once its start time has passed by the database's clock."""
        assert self.commands is not None and loaded.clocks.starts_at is not None
        starts = loaded.clocks.starts_at
        if self.index.estimated_time().timestamp() < starts or self.index.database_time().timestamp() < starts:
            return loaded
        try:
            return self.commands.append_events(loaded, None, [GameStarted()], starts)
        except StaleVersion:  # another writer was first (started, or cancelled it)
            return self.queries.load(loaded.record.game_id, settle=False)

    def sweep(self, limit: int = 100) -> int:
        """Settle every game the index says is due; the number settled."""
        settled = 0
        # by the estimate (no round trip each round): each game found is settled by the database's clock
        for game_id in self.index.due_games(self.index.estimated_time(), limit):
            try:
                loaded = self.queries.load(game_id)  # settles
                if loaded.clocks.control.timed or loaded.scheduled:
                    self.record(loaded)
                else:  # an untimed game started (at its time or early): it leaves the index
                    self.index.set_deadline(game_id, loaded.version, None)
                settled += 1
            except (GameNotFound, ServiceError) as e:
                log.warning("timeout sweep: game %s skipped: %s", game_id, e)
        return settled


def _due(clocks: Clocks) -> float | None:
    """When something is due in a game: its start while it waits for it, else its earliest deadline."""
    return clocks.starts_at if clocks.starts_at is not None else clocks.deadline()


class Sweeper(LeasedLoop[int]):
    """The background thread that sweeps due timeouts while it holds the lease."""

    lease_name = LEASE_NAME
    thread_name = "timeout-sweeper"

    def __init__(self, timekeeper: Timekeeper, interval: float = 0.2,
                 on_error: Callable[[Exception], None] | None = None) -> None:
        super().__init__(timekeeper.index, interval, LEASE_SECONDS, on_error)
        self.timekeeper = timekeeper

    def work(self) -> int:
        settled = self.timekeeper.sweep()
        prometheus.SETTLED.inc(settled)
        prometheus.SWEEP_LAST.set(time.time())
        return settled

    def idle(self) -> int:
        return 0
