"""The events of the cable-car game.

Events are facts: the shuffled pile, the dealt cards and every die face are
written into them, so :mod:`domain.cablecar.evolve` needs no randomness.

Secrets: ``GameSetUp.lines``/``route_cards``/``routes`` are each seat's own
until that seat starts its ride (or the game ends); ``pile`` and
``rng_key`` are secret to everybody until the game ends.
:func:`domain.cablecar.view.redact` blanks them (``None``).

A move is a run of events whose first one carries the acting ``seat``:
``tiles_laid`` (a ``lay_tiles`` action), ``tile_drawn`` (``draw_tile``),
``ride_started`` (``start_ride``) or ``die_rolled`` (``roll``); the others
follow automatically.  Since ``cable-car/3`` the move's last event says when
it ended the turn (``ends_turn``; the next seat is the next one still in) if
it is one of :data:`TURN_END_CARRIERS`; otherwise, and under older rules, a
``turn_ended`` event follows (see :mod:`domain.turnends`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain.core import JSON, Event
from domain.forfeits import FORFEIT_EVENTS


@dataclass(frozen=True)
class GameSetUp(Event):
    """The game was created: seats, dealt cards, start hands and the pile.

    Per seat ``i``: ``lines[i]`` (line id), ``route_cards[i]`` (card id),
    ``routes[i]`` (the stop letters of that card for that line) and
    ``hands[i]`` (the open start tiles).  ``pile`` lists the face-down pile,
    top first; ``rng_key``/``rng_counter`` position the die's generator.
    """

    TYPE: ClassVar[str] = "game_set_up"
    REDACTED: ClassVar[tuple[str, ...]] = ("lines[]", "route_cards[]", "routes[]", "pile", "rng_key")

    players: tuple[str, ...]
    start_seat: int
    rules_version: str
    board_version: str
    lines: tuple[str | None, ...]
    route_cards: tuple[str | None, ...]
    routes: tuple[tuple[str, ...] | None, ...]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...] | None
    pile_count: int
    rng_key: str | None
    rng_counter: int
    #: the time control as created; absent for an untimed game, so untimed
    #: games (and every game from before time controls) keep their exact payload
    time_control: Mapping[str, JSON] | None = None

    def to_payload(self) -> dict[str, JSON]:
        """The stored payload; without ``time_control`` when there is none."""
        payload = super().to_payload()
        if payload.get("time_control") is None:
            del payload["time_control"]
        return payload


@dataclass(frozen=True)
class TilesLaid(Event):
    """``seat`` laid tiles, in order.

    Each placement is ``{"tile", "row", "col", "rotation", "replaced",
    "stops"}``: ``replaced`` is ``{"tile", "rotation"}`` of the tile an
    exchange took back into the hand (None when laid on an empty square);
    ``stops`` the letters of the stops whose tile it became.
    """

    TYPE: ClassVar[str] = "tiles_laid"
    SCHEMA_VERSION: ClassVar[int] = 2

    seat: int
    placements: tuple[Mapping[str, JSON], ...]
    #: the turn ended with this event (``cable-car/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class TilesDrawn(Event):
    """``seat`` drew back up to a full hand.

    ``tiles`` came off the top of the pile, in order; ``from_riders`` are
    ``(rider seat, tile)`` pairs taken from riders' open hands once the pile
    was empty.  Under ``cable-car/4`` a draw longer than the pile may take its
    rest alone (``from_riders`` empty, the turn not ended), the drawer then
    choosing riders' tiles with ``draw_tile``.
    """

    TYPE: ClassVar[str] = "tiles_drawn"
    SCHEMA_VERSION: ClassVar[int] = 2

    seat: int
    tiles: tuple[str, ...]
    from_riders: tuple[tuple[int, str], ...] = ()
    #: the turn ended with this event (``cable-car/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class TileDrawn(Event):
    """``seat`` chose to draw ``tile``: the top of the pile (``source`` ``pile``: only
    ``cable-car/2`` and ``/3`` offered it) or from riding seat ``rider``'s open hand
    (``source`` ``rider``)."""

    TYPE: ClassVar[str] = "tile_drawn"
    SCHEMA_VERSION: ClassVar[int] = 2

    seat: int
    source: str
    rider: int | None
    tile: str
    #: the turn ended with this event (``cable-car/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class TurnPassed(Event):
    """``seat`` could lay no legal tile and could not start a ride: it passes."""

    TYPE: ClassVar[str] = "turn_passed"

    seat: int
    reason: str


@dataclass(frozen=True)
class TurnEnded(Event):
    """``seat``'s turn is over; ``next_seat`` is to act."""

    TYPE: ClassVar[str] = "turn_ended"

    seat: int
    next_seat: int


@dataclass(frozen=True)
class RideStarted(Event):
    """``seat`` revealed its cards and put its tram on ``origin``.

    ``spaces`` is the fixed path: ``[origin, [row, col], ..., destination]``
    with the name of any other line's terminal loop driven over in between
    (see :class:`domain.cablecar.state.Ride`).
    """

    TYPE: ClassVar[str] = "ride_started"

    seat: int
    line: str
    route_card: str
    route: tuple[str, ...]
    origin: str
    destination: str
    spaces: tuple[JSON, ...]


@dataclass(frozen=True)
class DieRolled(Event):
    """``seat`` rolled ``face`` and its tram moved from space ``start`` to ``end``.

    ``rng_counter`` is the die generator's position after the roll.
    """

    TYPE: ClassVar[str] = "die_rolled"
    SCHEMA_VERSION: ClassVar[int] = 2

    seat: int
    face: str
    rng_counter: int
    start: int
    end: int
    #: the turn ended with this event (``cable-car/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over.

    ``reason``: ``destination_reached`` (``winners`` is the seat whose tram
    arrived) or ``stalled`` (every seat passed in a row: nobody can ever move
    again; no winner).
    """

    TYPE: ClassVar[str] = "game_ended"

    winners: tuple[int, ...]
    reason: str


EVENT_CLASSES: tuple[type[Event], ...] = (
    GameSetUp,
    TilesLaid,
    TilesDrawn,
    TileDrawn,
    TurnPassed,
    TurnEnded,
    RideStarted,
    DieRolled,
    GameEnded,
    *FORFEIT_EVENTS,
)

#: the events a turn commonly ends with, which carry its end under ``cable-car/3``
TURN_END_CARRIERS: tuple[type[Event], ...] = (TilesLaid, TilesDrawn, TileDrawn, DieRolled)
