"""The game's physical components, loaded once from the packaged ``data/board.json``.

The JSON file is a copy of the project's reference board (grid, stops, lines
and their terminals, tile types with their counts, route cards, die).  This
module turns it into frozen, typed values; nothing else reads the file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

EDGE_LETTERS = "NESW"


@dataclass(frozen=True, slots=True)
class TileType:
    """One kind of track tile: its segments in rotation 0 and how many exist."""

    id: str
    segments: tuple[tuple[str, str], ...]
    tree: bool
    draw_pile: int
    start_tiles: int

    @property
    def total(self) -> int:
        """How many tiles of this type the game has (start tiles included)."""
        return self.draw_pile + self.start_tiles


@dataclass(frozen=True, slots=True)
class Stop:
    """A lettered stop square; it can never hold a tile."""

    letter: str
    name: str
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Terminal:
    """A terminal loop outside the grid, entering two adjacent edge squares.

    ``edge`` is the board edge the loop lies beyond (N, E, S or W); both
    ``squares`` touch the loop through that edge of theirs.
    """

    name: str
    line: str
    edge: str
    squares: tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Line:
    """A cable-car line: a colour and the two terminals it joins."""

    id: str
    color: str
    terminals: tuple[Terminal, Terminal]


@dataclass(frozen=True, slots=True)
class RouteCard:
    """A route card: for each line id, the stop letters that line must pass."""

    id: str
    stops: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Components:
    """Every component of the game."""

    rows: int
    cols: int
    stops: tuple[Stop, ...]
    lines: tuple[Line, ...]
    tile_types: tuple[TileType, ...]
    start_hand: Mapping[str, int]
    hand_size: int
    tiles_per_turn: int
    min_players: int
    max_players: int
    three_stop_cards: tuple[RouteCard, ...]
    two_stop_cards: tuple[RouteCard, ...]
    die: tuple[str, ...]
    tile_total: int
    rotation: str

    def tile_type(self, tile_id: str) -> TileType:
        """The tile type with id ``tile_id``; raises KeyError if unknown."""
        for tile in self.tile_types:
            if tile.id == tile_id:
                return tile
        raise KeyError(tile_id)

    def line(self, line_id: str) -> Line:
        """The line with id ``line_id``; raises KeyError if unknown."""
        for line in self.lines:
            if line.id == line_id:
                return line
        raise KeyError(line_id)

    def route_cards_for(self, player_count: int) -> tuple[RouteCard, ...]:
        """The route-card deck used with ``player_count`` players."""
        return self.three_stop_cards if player_count <= 3 else self.two_stop_cards

    def terminals(self) -> tuple[Terminal, ...]:
        """Every terminal of every line, in line order."""
        return tuple(t for line in self.lines for t in line.terminals)


def _terminal(line_id: str, raw: Mapping[str, Any], rows: int, cols: int) -> Terminal:
    edge = raw["edge"]
    if edge not in EDGE_LETTERS:
        raise ValueError(f"terminal {raw['name']!r}: bad edge {edge!r}")
    if edge in "WE":
        col = 1 if edge == "W" else cols
        a, b = (int(r) for r in raw["rows"])
        squares = ((a, col), (b, col))
    else:
        row = 1 if edge == "N" else rows
        a, b = (int(c) for c in raw["cols"])
        squares = ((row, a), (row, b))
    return Terminal(name=raw["name"], line=line_id, edge=edge, squares=squares)


def _cards(raw: Mapping[str, Any]) -> tuple[RouteCard, ...]:
    return tuple(
        RouteCard(id=card_id, stops={line: tuple(stops) for line, stops in by_line.items()})
        for card_id, by_line in sorted(raw.items())
    )


def parse_components(raw: Mapping[str, Any]) -> Components:
    """Build :class:`Components` from the board JSON document."""
    rows, cols = int(raw["grid"]["rows"]), int(raw["grid"]["cols"])
    stops = tuple(
        Stop(letter=letter, name=s["name"], row=int(s["row"]), col=int(s["col"]))
        for letter, s in sorted(raw["stops"].items())
    )
    lines = tuple(
        Line(
            id=line_id,
            color=spec["color"],
            terminals=(
                _terminal(line_id, spec["terminals"][0], rows, cols),
                _terminal(line_id, spec["terminals"][1], rows, cols),
            ),
        )
        for line_id, spec in sorted(raw["lines"].items())
    )
    tile_types = tuple(
        TileType(
            id=t["id"],
            segments=tuple((a, b) for a, b in t["segments"]),
            tree=bool(t["tree"]),
            draw_pile=int(t["draw_pile"]),
            start_tiles=int(t["start_tiles"]),
        )
        for t in raw["tiles"]
    )
    components = Components(
        rows=rows,
        cols=cols,
        stops=stops,
        lines=lines,
        tile_types=tile_types,
        start_hand={k: int(v) for k, v in raw["start_hand"].items()},
        hand_size=int(raw["hand_size"]),
        tiles_per_turn=int(raw["tiles_per_turn"]),
        min_players=int(raw["players"]["min"]),
        max_players=int(raw["players"]["max"]),
        three_stop_cards=_cards(raw["route_cards"]["three_stops_for_2_3_players"]),
        two_stop_cards=_cards(raw["route_cards"]["two_stops_for_4_6_players"]),
        die=tuple(str(face) for face in raw["die"]),
        tile_total=int(raw["tile_total"]),
        rotation=str(raw["rotation"]),
    )
    if sum(t.total for t in tile_types) != components.tile_total:
        raise ValueError("tile counts do not add up to tile_total")
    return components


def load_components() -> Components:
    """Read and parse the packaged board file."""
    text = resources.files("domain.cablecar").joinpath("data/board.json").read_text(encoding="utf-8")
    return parse_components(json.loads(text))


#: The game's components, parsed once at import.
COMPONENTS = load_components()
