"""Events the server records about who may act and about the record itself:
they change nothing in the game.

* ``seat_token_rotated`` ``{"seat"}``: the host replaced that seat's token.
  The payload holds no secret; the seat's stored token hash changes in the
  same write, and only with this event (the database refuses any other
  change of it), so the record shows every change of who may act.
* ``events_quarantined`` ``{"from_seq", "count"}``: an operator moved a
  damaged tail of ``count`` events from ``from_seq`` on aside (``cablecar
  quarantine``); they are kept apart, never deleted, and the game goes on
  from here.
* ``game_scheduled`` ``{"starts_at"}``: the game was created to start at
  ``starts_at`` (ISO-8601 UTC; a tournament round, :mod:`domain.clocks`):
  written right after the opening events; until ``game_started`` no seat
  may act and no clock runs.
* ``game_started`` ``{}``: the scheduled game starts now (at its time, or
  earlier when its organiser said so); the clocks start from this event.

Every game records them besides its own events, and its state passes
through them unchanged: :class:`~domain.core.GameDefinition` adds them to
each definition, so no game declares them again (the scheduled pair moves
the clocks only: :meth:`~domain.core.GameDefinition.clocks_after`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from domain.parts import Event

S = TypeVar("S")


@dataclass(frozen=True)
class SeatTokenRotated(Event):
    """The host replaced ``seat``'s token: the old one acts no more."""

    TYPE: ClassVar[str] = "seat_token_rotated"

    seat: int


@dataclass(frozen=True)
class EventsQuarantined(Event):
    """``count`` events from ``from_seq`` on failed their check and were moved aside by an operator."""

    TYPE: ClassVar[str] = "events_quarantined"

    from_seq: int
    count: int


#: the status a scheduled game shows until its ``game_started`` (the rules never give it)
STATUS_SCHEDULED = "scheduled"


@dataclass(frozen=True)
class GameScheduled(Event):
    """The game waits for its start at ``starts_at`` (ISO-8601 UTC): nobody acts, no clock runs."""

    TYPE: ClassVar[str] = "game_scheduled"

    starts_at: str


@dataclass(frozen=True)
class GameStarted(Event):
    """A scheduled game starts: seats may act and the clocks run from this event on."""

    TYPE: ClassVar[str] = "game_started"


#: the events every game records about its record and who may act
CUSTODY_EVENTS: tuple[type[Event], ...] = (SeatTokenRotated, EventsQuarantined, GameScheduled, GameStarted)


def passing_custody(evolve: Callable[[S | None, Event], S]) -> Callable[[S | None, Event], S]:
    """``evolve`` that leaves the state as it is for the custody events."""
    if getattr(evolve, "passes_custody", False):
        return evolve

    @functools.wraps(evolve)  # __wrapped__: the game's own evolve (its annotations name the state class)
    def evolved(state: S | None, event: Event) -> S:
        if state is not None and type(event) in _CUSTODY_TYPES:
            return state
        return evolve(state, event)

    evolved.passes_custody = True  # type: ignore[attr-defined]
    return evolved


_CUSTODY_TYPES = frozenset(CUSTODY_EVENTS)
