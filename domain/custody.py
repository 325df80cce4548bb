"""Events the server records about who may act and about the record itself:
they change nothing in the game.

* ``seat_token_rotated`` ``{"seat"}``: the host replaced that seat's token.
  The payload holds no secret; the seat's stored token hash changes in the
  same write, and only with this event (the database refuses any other
  change of it), so the record shows every change of who may act.
* ``events_quarantined`` ``{"from_seq", "to_seq", "count", "hashes"}``: an
  operator moved a damaged tail aside (``cablecar quarantine``): the ``count``
  events ``from_seq`` to ``to_seq``, whose hashes ``hashes`` lists in order,
  none of them held by a published checkpoint of the transparency log; they
  are kept apart, never deleted, and the game goes on from here.  Schema
  version 1 (before issue 48) had ``from_seq`` and ``count`` only: it is
  lifted with ``to_seq`` and ``hashes: null`` (the hashes were not recorded).
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from domain.jsonvalue import JSON
from domain.parts import Event, Upcast

S = TypeVar("S")


@dataclass(frozen=True)
class SeatTokenRotated(Event):
    """The host replaced ``seat``'s token: the old one acts no more."""

    TYPE: ClassVar[str] = "seat_token_rotated"

    seat: int


@dataclass(frozen=True)
class EventsQuarantined(Event):
    """The ``count`` events ``from_seq`` to ``to_seq`` (their hashes ``hashes``,
    in order; None: a version 1 record, which did not list them) failed their
    check and were moved aside by an operator."""

    TYPE: ClassVar[str] = "events_quarantined"
    SCHEMA_VERSION: ClassVar[int] = 2

    from_seq: int
    to_seq: int
    count: int
    hashes: tuple[str, ...] | None

    def problem(self, seq: int) -> str | None:
        """Why this event cannot be the quarantine recorded as event ``seq``
        (None: it can): it takes the place of the first event moved aside,
        and its range, count and hashes agree."""
        if self.from_seq != seq:
            return f"it names seq {self.from_seq} as the first moved aside, but took the place of seq {seq}"
        if self.count < 1 or self.to_seq != self.from_seq + self.count - 1:
            return f"its range seq {self.from_seq}..{self.to_seq} does not hold {self.count} events"
        if self.hashes is not None and (
            len(self.hashes) != self.count or not all(_is_hash(h) for h in self.hashes)
        ):
            return f"it does not list {self.count} event hashes (64 lowercase hex digits each)"
        return None


def _is_hash(text: object) -> bool:
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def quarantined_v1_to_v2(payload: Mapping[str, JSON]) -> dict[str, JSON]:
    """``events_quarantined`` v1 -> v2: the range's end, and ``hashes: null``
    (a version 1 quarantine did not record the hashes it moved aside).

    Raises ValueError unless ``from_seq`` and ``count`` are whole numbers."""
    from_seq, count = payload.get("from_seq"), payload.get("count")
    if not isinstance(from_seq, int) or not isinstance(count, int) or isinstance(from_seq, bool) \
            or isinstance(count, bool):
        raise ValueError("events_quarantined v1 needs whole numbers from_seq and count")
    return {**payload, "to_seq": from_seq + count - 1, "hashes": None}


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
#: the lifts of the custody events' older payloads, which every game declares with its own
CUSTODY_UPCASTERS: tuple[Upcast, ...] = (
    Upcast(EventsQuarantined.TYPE, 1, quarantined_v1_to_v2, (("to_seq", None), ("hashes", None))),
)


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
