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

Every game records them besides its own events, and its state passes
through them unchanged: :class:`~domain.core.GameDefinition` adds both to
each definition, so no game declares them again.
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


#: the events every game records about its record and who may act
CUSTODY_EVENTS: tuple[type[Event], ...] = (SeatTokenRotated, EventsQuarantined)


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
