"""The actions a seat can send; each field declares its JSON body shape.

Bodies (fixed by the HTTP contract)::

    {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 3, "col": 4, "rotation": 1}, ...]}
    {"type": "start_ride", "from": "Ocean Beach", "path": [[6, 1], [6, 2], ...]}
    {"type": "roll"}
    {"type": "draw_tile", "source": "pile"}
    {"type": "draw_tile", "source": "rider", "rider": 2, "tile": "curve"}

``lay_tiles`` carries one or two placements (one only when no legal pair
exists); a placement on an occupied square is an exchange.  Drawing back up
is automatic unless a riding player's open hand offers a choice; then the
seat sends one ``draw_tile`` per tile (see :mod:`domain.cablecar.drawing`).

``start_ride``: ``from`` and ``path`` are both optional.  ``path`` lists the
squares the tram drives through, in order, from the square next to the
start terminal to the square next to the destination terminal.  Where the
path drives over another line's terminal loop, the loop may be written as
that terminal's name between its two squares (``[..., [6, 1], "Ocean
Beach", [7, 1], ...]``); it is only needed when the two squares could also
be joined directly.

Parsing (:meth:`domain.core.GameDefinition.parse_action`) checks shapes only
(MalformedAction); whether the rules allow the action is decided by
:mod:`domain.cablecar.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from domain.body import AnyOf, Integer, ListOf, Record, Text, body_field, malformed
from domain.cablecar.events import DieRolled, RideStarted, TileDrawn, TilesLaid
from domain.core import Action, Event
from domain.forfeits import Resign, SeatResigned

#: one step of a requested ride path: a square ``(row, col)`` or a terminal loop's name
PathStep = tuple[int, int] | str

#: a row or a column of the 12 x 12 grid
LINE = Integer(minimum=1, maximum=12)
TERMINAL = Text(max_length=60)


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile laid (or exchanged) on square ``(row, col)`` in ``rotation``."""

    tile: str = body_field(Text(max_length=40))
    row: int = body_field(LINE)
    col: int = body_field(LINE)
    rotation: int = body_field(Integer(minimum=0, maximum=3))

    @property
    def square(self) -> tuple[int, int]:
        """The ``(row, col)`` of the placement."""
        return self.row, self.col


@dataclass(frozen=True)
class LayTiles(Action):
    """Lay two tiles (one when no legal pair exists), in order."""

    TYPE: ClassVar[str] = "lay_tiles"

    placements: tuple[Placement, ...] = body_field(ListOf(Record(Placement), min_items=1, max_items=2))


@dataclass(frozen=True)
class StartRide(Action):
    """Reveal the cards and start the inaugural ride.

    ``origin`` is the ``from`` terminal's name; ``path`` the squares (and
    loop names) to drive.  Both None means: the server picks.
    """

    TYPE: ClassVar[str] = "start_ride"

    origin: str | None = body_field(TERMINAL, optional=True, name="from")
    path: tuple[PathStep, ...] | None = body_field(
        ListOf(AnyOf((TERMINAL, ListOf(LINE, min_items=2, max_items=2))), min_items=1, max_items=144),
        optional=True,
    )


@dataclass(frozen=True)
class Roll(Action):
    """A riding player rolls the die and moves its tram."""

    TYPE: ClassVar[str] = "roll"


SOURCE_PILE = "pile"
SOURCE_RIDER = "rider"


@dataclass(frozen=True)
class DrawTile(Action):
    """Draw one tile back up: the top of the pile, or ``tile`` from riding seat ``rider``'s
    open hand (``rider`` and ``tile`` go with source ``rider`` only, and always with it)."""

    TYPE: ClassVar[str] = "draw_tile"

    source: str = body_field(Text(choices=(SOURCE_PILE, SOURCE_RIDER)))
    rider: int | None = body_field(Integer(minimum=0, maximum=5), optional=True)
    tile: str | None = body_field(Text(max_length=40), optional=True)

    def __post_init__(self) -> None:
        given = (self.rider is not None, self.tile is not None)
        if self.source == SOURCE_PILE and any(given):
            raise malformed("draw_tile: 'rider' and 'tile' go with source 'rider' only")
        if self.source == SOURCE_RIDER and not all(given):
            raise malformed("draw_tile: source 'rider' needs 'rider' (a seat) and 'tile' (a tile id)")


def action_of(event: Event) -> tuple[int, Action] | None:
    """The (seat, action) whose move ``event`` opens, or None for other events."""
    if isinstance(event, SeatResigned):
        return event.seat, Resign()
    if isinstance(event, TilesLaid):
        placements = tuple(Placement(p["tile"], p["row"], p["col"], p["rotation"]) for p in event.placements)
        return event.seat, LayTiles(placements)
    if isinstance(event, RideStarted):
        path = tuple(s if isinstance(s, str) else (int(s[0]), int(s[1])) for s in event.spaces[1:-1])
        return event.seat, StartRide(event.origin, path)
    if isinstance(event, DieRolled):
        return event.seat, Roll()
    if isinstance(event, TileDrawn):
        if event.source == SOURCE_PILE:
            return event.seat, DrawTile(SOURCE_PILE)
        return event.seat, DrawTile(SOURCE_RIDER, event.rider, event.tile)
    return None
