"""Resignations, timeouts and cancels: the parts every game shares.

**Ruling** (both games; not in the printed rules, needed for timed and
tournament play): a seat that resigns or runs out of time is *out*.  It
takes no further turns (its turns are skipped; a setup choice it still owed
is made by its game's stated default), what it built stays on the board,
and it ranks below every seat still in, whatever its points (seats that are
out rank among themselves by the game's usual order).  When only one seat
is still in, that seat wins and the game ends at once.  Seats that miss one
deadline together (a simultaneous setup step) go out together; when that
leaves no seat in, the game ends with no winner.  A host may cancel a game
before it ends: it ends with no result.

Each game applies these events in its own ``evolve`` and states what being
out means for its turn order in its ``turns`` module (``forfeit``); the
event and action types here are shared so that every game writes the same
``seat_resigned`` / ``seat_timed_out`` / ``game_cancelled`` and accepts the
same ``{"type": "resign"}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from domain.errors import IllegalAction
from domain.parts import Action, Decision, Event, Move

S = TypeVar("S")

#: a seat's standing: still playing (or played to the end), or out and why
STANDING_IN = "in"
STANDING_RESIGNED = "resigned"
STANDING_TIMED_OUT = "timed_out"
STANDINGS = (STANDING_IN, STANDING_RESIGNED, STANDING_TIMED_OUT)

#: the status of a game a host cancelled
STATUS_CANCELLED = "cancelled"
#: why a game ended when all but one seat went out
REASON_FORFEIT = "forfeit"


@dataclass(frozen=True)
class SeatResigned(Event):
    """``seat`` resigned: it is out."""

    TYPE: ClassVar[str] = "seat_resigned"

    seat: int


@dataclass(frozen=True)
class SeatTimedOut(Event):
    """``seat``'s deadline passed (appended by the server from the
    database's time, checked by the audit): it is out."""

    TYPE: ClassVar[str] = "seat_timed_out"

    seat: int


@dataclass(frozen=True)
class GameCancelled(Event):
    """The host cancelled the game: it ends with no result."""

    TYPE: ClassVar[str] = "game_cancelled"


#: the events every game records for forfeits and cancels
FORFEIT_EVENTS: tuple[type[Event], ...] = (SeatResigned, SeatTimedOut, GameCancelled)


@dataclass(frozen=True)
class Resign(Action):
    """``{"type": "resign"}``: the sending seat gives up (any time before the end)."""

    TYPE: ClassVar[str] = "resign"


def out_standing(event: Event) -> str:
    """The standing a forfeit event gives its seat."""
    return STANDING_RESIGNED if isinstance(event, SeatResigned) else STANDING_TIMED_OUT


def marked_out(out: tuple[str | None, ...], seat: int, event: Event) -> tuple[str | None, ...]:
    """``out`` (per seat: None while in, else the standing) with ``seat`` out by ``event``."""
    return out[:seat] + (out_standing(event),) + out[seat + 1 :]


def standings_of(out: Sequence[str | None]) -> tuple[str, ...]:
    """Every seat's standing (``in``, ``resigned`` or ``timed_out``)."""
    return tuple(STANDING_IN if o is None else o for o in out)


def seats_in(out: Sequence[str | None]) -> tuple[int, ...]:
    """The seats still in."""
    return tuple(seat for seat, o in enumerate(out) if o is None)


def next_in(out: Sequence[str | None], seat: int) -> int:
    """The first seat after ``seat`` in turn order that is still in (``seat``
    itself if nobody else is)."""
    n = len(out)
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if out[candidate] is None:
            return candidate
    return seat


def ranked_with_forfeits(keys: Sequence[tuple[int, ...]], out: Sequence[str | None]) -> tuple[int, ...]:
    """Each seat's rank (1 = best; ties share) where every seat still in
    ranks above every seat that is out, and seats in the same group rank by
    their ``keys`` (higher is better)."""
    full = [(1 if out[seat] is None else 0, *key) for seat, key in enumerate(keys)]
    return tuple(1 + sum(1 for other in full if other > mine) for mine in full)


def resign_move(
    forfeit: Callable[[Decision[S], Sequence[Event]], None], standings: Callable[[S], Sequence[str]]
) -> Move[S]:
    """The ``resign`` move of a game whose forfeit rule is ``forfeit``: any
    seat still in may send it at any time before the end."""

    def decide(decision: Decision[S], seat: int, action: Resign) -> None:
        standing = standings(decision.state)[seat]
        if standing != STANDING_IN:
            raise IllegalAction("already_out", f"seat {seat} is already out ({standing}); it cannot resign")
        forfeit(decision, [SeatResigned(seat)])

    return Move(Resign, decide)
