"""The board as a value: which tile lies on each square, and each stop's tile."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from domain.cablecar.geometry import SQUARE_COUNT, STOP_LETTERS
from domain.cablecar.tiles import Orientation


@dataclass(frozen=True, slots=True)
class Board:
    """Tiles on the 144 squares plus the stop tiles.

    ``cells[i]`` is the orientation on square ``i`` (None when empty);
    ``edges[i]`` is its edge mask (0 for an empty square: every tile has
    track); ``stop_tiles[k]`` is the square of stop ``STOP_LETTERS[k]``'s tile,
    or None while the stop has none.  ``rules`` is the generation of the
    placement rules the game was created under: 1 (``cable-car/1``) lacks the
    further-travel ruling of :mod:`domain.cablecar.ends`, so games recorded
    then still verify; 2 (``cable-car/2`` and every later version) has it.
    """

    cells: tuple[Orientation | None, ...]
    edges: tuple[int, ...]
    stop_tiles: tuple[int | None, ...]
    rules: int = 2

    @classmethod
    def empty(cls, rules: int = 2) -> Board:
        """A board without tiles."""
        return cls((None,) * SQUARE_COUNT, (0,) * SQUARE_COUNT, (None,) * len(STOP_LETTERS), rules)

    def with_tile(self, square: int, orientation: Orientation) -> Board:
        """The board with ``orientation`` on ``square`` (laid or exchanged)."""
        cells = list(self.cells)
        edges = list(self.edges)
        cells[square] = orientation
        edges[square] = orientation.edges
        return Board(tuple(cells), tuple(edges), self.stop_tiles, self.rules)

    def with_stop_tile(self, letter: str, square: int) -> Board:
        """The board with ``square`` as the tile of stop ``letter``."""
        stops = list(self.stop_tiles)
        stops[STOP_LETTERS.index(letter)] = square
        return Board(self.cells, self.edges, tuple(stops), self.rules)

    def stop_tile(self, letter: str) -> int | None:
        """The square of stop ``letter``'s tile, or None."""
        return self.stop_tiles[STOP_LETTERS.index(letter)]

    def stop_tile_squares(self) -> frozenset[int]:
        """Every square that is the tile of some stop."""
        return frozenset(s for s in self.stop_tiles if s is not None)

    def placed(self) -> Iterator[tuple[int, Orientation]]:
        """Every (square, orientation) on the board, in square order."""
        for square, cell in enumerate(self.cells):
            if cell is not None:
                yield square, cell

    def tile_count(self) -> int:
        """How many tiles lie on the board."""
        return sum(1 for cell in self.cells if cell is not None)
