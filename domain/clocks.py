"""Time controls and the clocks they run, as pure values.

A game is created with a :class:`TimeControl`: none, a per-turn deadline, or
a chess-style clock per seat (initial time plus an increment for every turn
completed), each timed kind with an optional allowance for the simultaneous
setup steps.  The clocks are *derived*: :meth:`Clocks.advance` folds, for
every recorded event, the event's timestamp and who is active after it, so
the remaining times at any version follow from the log alone (never from a
worker's memory).  Nothing here reads a clock: times are plain seconds the
caller passes in (the events' ``recorded_at``).

Turns.  A seat's turn is a maximal run of versions in which the seat is
active and the game's turn number does not change (a ttr-sf turn of two
card draws is one turn; a seat playing again after everybody else passed
starts a new one).  During setup every seat with a pending choice is active
at once; its setup "turn" lasts until its last setup choice.

Rulings (also in ``openapi.yaml``):

* ``per_turn``: each turn must be finished within ``seconds``; setup within
  ``setup_seconds`` (default: ``seconds``).
* ``clock``: a seat's bank starts at ``initial_seconds`` and drains while
  it is active; ``increment_seconds`` is added when it completes a turn.
  With ``setup_seconds`` the setup steps run on that separate allowance and
  leave the bank alone; without it they drain the bank.
* A deadline passes when the remaining time reaches zero; the seat then
  times out (the service appends ``seat_timed_out``).
* A scheduled game (``game_scheduled``, :mod:`domain.custody`) runs no clock
  until its ``game_started``: the clocks *wait* (:meth:`Clocks.waiting`),
  and start afresh, full banks, from the start event's time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from domain.body import integral
from domain.errors import InvalidConfig

KIND_NONE = "none"
KIND_PER_TURN = "per_turn"
KIND_CLOCK = "clock"
KINDS = (KIND_NONE, KIND_PER_TURN, KIND_CLOCK)

#: the longest time any setting may hold: 7 days
MAX_SECONDS = 7 * 24 * 3600
#: the shortest turn or bank a timed game may have (one second: below it no
#: client could answer over a network)
MIN_SECONDS = 1

_FIELDS: Mapping[str, tuple[str, ...]] = {
    KIND_NONE: (),
    KIND_PER_TURN: ("seconds", "setup_seconds"),
    KIND_CLOCK: ("initial_seconds", "increment_seconds", "setup_seconds"),
}
_REQUIRED: Mapping[str, tuple[str, ...]] = {
    KIND_NONE: (),
    KIND_PER_TURN: ("seconds",),
    KIND_CLOCK: ("initial_seconds",),
}


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How long seats may think: see the module docstring for each kind."""

    kind: str = KIND_NONE
    seconds: int | None = None
    initial_seconds: int | None = None
    increment_seconds: int = 0
    setup_seconds: int | None = None

    @property
    def timed(self) -> bool:
        """Whether any deadline applies."""
        return self.kind != KIND_NONE

    def to_json(self) -> dict[str, Any]:
        """The control as created (the shape :func:`parse_time_control` reads)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == KIND_PER_TURN:
            out["seconds"] = self.seconds
        elif self.kind == KIND_CLOCK:
            out["initial_seconds"] = self.initial_seconds
            out["increment_seconds"] = self.increment_seconds
        if self.setup_seconds is not None:
            out["setup_seconds"] = self.setup_seconds
        return out

    def setup_limit(self) -> float | None:
        """The setup allowance per seat, or None when setup drains the clock bank."""
        if self.setup_seconds is not None:
            return float(self.setup_seconds)
        return float(self.seconds) if self.kind == KIND_PER_TURN and self.seconds is not None else None


NO_TIME_CONTROL = TimeControl()


def _seconds(body: Mapping[str, Any], name: str, minimum: int) -> int:
    value = integral(body[name])
    if value is None:
        raise InvalidConfig("time_control", f"time_control.{name} must be a whole number of seconds")
    if not minimum <= value <= MAX_SECONDS:
        raise InvalidConfig(
            "time_control", f"time_control.{name} must be between {minimum} and {MAX_SECONDS} seconds (7 days)"
        )
    return value


def parse_time_control(body: Any) -> TimeControl:
    """A :class:`TimeControl` from its JSON shape (None: no control); raises
    InvalidConfig naming the field for an unknown kind, a missing, unknown or
    non-integer field, or a time outside 1 s .. 7 days (increments 0 .. 7 days)."""
    if body is None:
        return NO_TIME_CONTROL
    if not isinstance(body, Mapping):
        raise InvalidConfig("time_control", "time_control must be an object with a 'kind'")
    kind = body.get("kind")
    if kind not in KINDS:
        raise InvalidConfig("time_control", f"time_control.kind must be one of {', '.join(KINDS)}")
    allowed = ("kind", *_FIELDS[kind])
    unknown = sorted(str(k)[:40] for k in body if k not in allowed)
    if unknown:
        raise InvalidConfig("time_control", f"time_control of kind {kind!r} has no field(s) {', '.join(unknown)}")
    missing = [name for name in _REQUIRED[kind] if name not in body]
    if missing:
        raise InvalidConfig("time_control", f"time_control of kind {kind!r} needs {', '.join(missing)}")
    setup = _seconds(body, "setup_seconds", MIN_SECONDS) if "setup_seconds" in body else None
    if kind == KIND_PER_TURN:
        return TimeControl(kind, seconds=_seconds(body, "seconds", MIN_SECONDS), setup_seconds=setup)
    if kind == KIND_CLOCK:
        increment = _seconds(body, "increment_seconds", 0) if "increment_seconds" in body else 0
        return TimeControl(
            kind, initial_seconds=_seconds(body, "initial_seconds", MIN_SECONDS),
            increment_seconds=increment, setup_seconds=setup,
        )
    return NO_TIME_CONTROL


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock: its bank (``clock`` kind; unused for ``per_turn``)
    and, while it is active, when its turn began, which turn it is and
    whether that turn is a setup turn."""

    bank: float
    since: float | None = None
    turn: int = -1
    setup: bool = False


@dataclass(frozen=True, slots=True)
class Moment:
    """What the clocks need to know about the game right after one event."""

    at: float
    active: tuple[int, ...]
    turn: int
    setup: bool
    over: bool
    #: the seats that are out (a turn that ends by its seat going out earns no increment)
    out: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ClockReading:
    """One seat's clock at a version: seconds left and whether it runs."""

    seat: int
    remaining_seconds: float
    running: bool


def epoch_of(iso: str) -> float:
    """Seconds since the epoch of an ISO-8601 UTC time (``2026-05-01T18:00:00Z``)."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


@dataclass(frozen=True, slots=True)
class Clocks:
    """Every seat's clock after the events folded so far (``at``: the time
    of the last one).  ``starts_at`` is set while a scheduled game waits for
    its start (epoch seconds): no clock runs then."""

    control: TimeControl
    seats: tuple[SeatClock, ...]
    at: float
    starts_at: float | None = None

    @classmethod
    def waiting(cls, control: TimeControl, seat_count: int, at: float, starts_at: float) -> Clocks:
        """The clocks of a game scheduled to start at ``starts_at``: full, none running."""
        bank = float(control.initial_seconds or 0)
        return cls(control, tuple(SeatClock(bank) for _ in range(seat_count)), at, starts_at)

    @classmethod
    def start(cls, control: TimeControl, seat_count: int, moment: Moment) -> Clocks:
        """The clocks right after the opening events."""
        bank = float(control.initial_seconds or 0)
        fresh = cls(control, tuple(SeatClock(bank) for _ in range(seat_count)), moment.at)
        return fresh.advance(moment)

    def advance(self, moment: Moment) -> Clocks:
        """The clocks after one more event (``moment``): turns that ended are
        charged (and earn the increment), turns that began start running;
        clocks waiting for the game's start stay as they are."""
        at = max(moment.at, self.at)  # timestamps never run backwards for the clocks
        if self.starts_at is not None:
            return replace(self, at=at)
        seats = []
        for seat, clock in enumerate(self.seats):
            active = not moment.over and seat in moment.active
            if clock.since is not None and (not active or clock.turn != moment.turn or clock.setup != moment.setup):
                clock = self._stopped(clock, at, earned=not moment.over and seat not in moment.out)
            if active and clock.since is None:
                clock = replace(clock, since=at, turn=moment.turn, setup=moment.setup)
            seats.append(clock)
        return Clocks(self.control, tuple(seats), at)

    def _stopped(self, clock: SeatClock, at: float, earned: bool) -> SeatClock:
        bank = clock.bank
        if self.control.kind == KIND_CLOCK and not (clock.setup and self.control.setup_seconds is not None):
            bank -= at - (at if clock.since is None else clock.since)
            if earned and not clock.setup:
                bank += self.control.increment_seconds
        return SeatClock(bank)

    def _limit(self, clock: SeatClock) -> float | None:
        """Seconds the running turn of ``clock`` may last in all, or None: untimed."""
        control = self.control
        if not control.timed or clock.since is None:
            return None
        if clock.setup and control.setup_limit() is not None:
            return control.setup_limit()
        if control.kind == KIND_PER_TURN:
            return float(control.seconds or 0)
        return clock.bank

    def readings(self, now: float | None = None) -> tuple[ClockReading, ...]:
        """Every seat's time left at ``now`` (default: the last event's time);
        a ``per_turn`` seat that is not running shows a whole turn; no
        readings at all without a time control."""
        if not self.control.timed:
            return ()
        now = self.at if now is None else max(now, self.at)
        out = []
        for seat, clock in enumerate(self.seats):
            limit = self._limit(clock)
            if limit is not None:
                remaining = max(0.0, limit - (now - (now if clock.since is None else clock.since)))
            elif self.control.kind == KIND_CLOCK:
                remaining = max(0.0, clock.bank)
            else:  # a per-turn seat waiting for its turn: it will have the whole turn
                remaining = float(self.control.seconds or 0)
            out.append(ClockReading(seat, remaining, clock.since is not None))
        return tuple(out)

    def deadlines(self) -> tuple[tuple[int, float], ...]:
        """``(seat, time)`` of every running deadline, earliest first."""
        found = []
        for seat, clock in enumerate(self.seats):
            limit = self._limit(clock)
            if limit is not None and clock.since is not None:
                found.append((seat, clock.since + limit))
        return tuple(sorted(found, key=lambda pair: (pair[1], pair[0])))

    def deadline(self) -> float | None:
        """The earliest running deadline, or None."""
        found = self.deadlines()
        return found[0][1] if found else None
