"""Grid geometry: squares, edges, rotation, neighbours, stops and terminal ends.

Conventions
-----------
* A square is addressed by ``(row, col)``, both 1-12, row 1 the north edge and
  col 1 the west edge.  Internally a square is the integer index
  ``(row - 1) * 12 + (col - 1)`` (0-143).
* Edges are ``N = 0``, ``E = 1``, ``S = 2``, ``W = 3``; the opposite edge is
  ``e ^ 2``.  An *edge mask* is a 4-bit set of edges (bit ``1 << e``).
* A segment joins two edges of one tile.  The six possible segments are bits
  of a *segment mask* (see :data:`SEGMENT_BIT`).
* Rotation ``r`` (0-3) turns a tile clockwise ``r`` quarter turns: edge ``e``
  moves to edge ``(e + r) % 4`` (N -> E -> S -> W).

Every table here is static: it depends only on the components.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from domain.cablecar.components import COMPONENTS, EDGE_LETTERS, Terminal

N, E, S, W = 0, 1, 2, 3
EDGES = (N, E, S, W)
ROWS = COMPONENTS.rows
COLS = COMPONENTS.cols
SQUARE_COUNT = ROWS * COLS

#: (row delta, col delta) of the neighbour across each edge
_DELTA = ((-1, 0), (0, 1), (1, 0), (0, -1))

#: bit of each segment (unordered edge pair) in a segment mask
SEGMENT_BIT: dict[frozenset[int], int] = {
    frozenset(pair): 1 << i for i, pair in enumerate(((N, E), (N, S), (N, W), (E, S), (E, W), (S, W)))
}


def edge_of(letter: str) -> int:
    """The edge number of ``N``/``E``/``S``/``W``."""
    return EDGE_LETTERS.index(letter)


def rotate(edge: int, rotation: int) -> int:
    """Where ``edge`` ends up after ``rotation`` clockwise quarter turns."""
    return (edge + rotation) % 4


def on_board(row: int, col: int) -> bool:
    """Whether ``(row, col)`` is a square of the grid."""
    return 1 <= row <= ROWS and 1 <= col <= COLS


def square_index(row: int, col: int) -> int:
    """The index of square ``(row, col)``; raises ValueError off the board."""
    if not on_board(row, col):
        raise ValueError(f"({row}, {col}) is not on the board")
    return (row - 1) * COLS + (col - 1)


def square_of(index: int) -> tuple[int, int]:
    """The ``(row, col)`` of square ``index``."""
    return index // COLS + 1, index % COLS + 1


def segment_mask(segments: tuple[tuple[int, int], ...]) -> int:
    """The segment mask of a set of edge pairs."""
    mask = 0
    for a, b in segments:
        mask |= SEGMENT_BIT[frozenset((a, b))]
    return mask


def edge_mask_of_segments(mask: int) -> int:
    """The edges with track, given a segment mask."""
    edges = 0
    for pair, bit in SEGMENT_BIT.items():
        if mask & bit:
            for e in pair:
                edges |= 1 << e
    return edges


def _neighbour(index: int, edge: int) -> int:
    row, col = square_of(index)
    dr, dc = _DELTA[edge]
    return square_index(row + dr, col + dc) if on_board(row + dr, col + dc) else -1


#: NEIGHBOUR[square][edge]: the square across that edge, or -1 off the board
NEIGHBOUR: tuple[tuple[int, int, int, int], ...] = tuple(
    (_neighbour(i, N), _neighbour(i, E), _neighbour(i, S), _neighbour(i, W)) for i in range(SQUARE_COUNT)
)

#: STOP_AT[square]: the letter of the stop on that square
STOP_AT: dict[int, str] = {square_index(s.row, s.col): s.letter for s in COMPONENTS.stops}
STOP_SQUARE: dict[str, int] = {letter: square for square, letter in STOP_AT.items()}
STOP_LETTERS: tuple[str, ...] = tuple(s.letter for s in COMPONENTS.stops)

#: TERMINAL_END[(square, edge)]: the terminal whose loop that edge enters
TERMINAL_END: dict[tuple[int, int], Terminal] = {
    (square_index(*sq), edge_of(t.edge)): t for t in COMPONENTS.terminals() for sq in t.squares
}
TERMINALS: dict[str, Terminal] = {t.name: t for t in COMPONENTS.terminals()}


def terminal_squares(terminal: Terminal) -> tuple[int, int]:
    """The indices of the two squares a terminal loop enters."""
    a, b = terminal.squares
    return square_index(*a), square_index(*b)


def terminal_edge(terminal: Terminal) -> int:
    """The edge (of its squares) through which a terminal loop is entered."""
    return edge_of(terminal.edge)


class EdgeKind(IntEnum):
    """What lies across one edge of a square, statically."""

    SQUARE = 0  #: an ordinary square of the board (it may hold a tile)
    OFF_BOARD = 1  #: the board edge, no terminal
    STOP = 2  #: a stop square (never holds a tile)
    TERMINAL = 3  #: the end of a terminal loop


def _kind(index: int, edge: int) -> EdgeKind:
    n = NEIGHBOUR[index][edge]
    if n >= 0:
        return EdgeKind.STOP if n in STOP_AT else EdgeKind.SQUARE
    return EdgeKind.TERMINAL if (index, edge) in TERMINAL_END else EdgeKind.OFF_BOARD


#: EDGE_KIND[square][edge]
EDGE_KIND: tuple[tuple[EdgeKind, ...], ...] = tuple(
    tuple(_kind(i, e) for e in EDGES) for i in range(SQUARE_COUNT)
)


@dataclass(frozen=True, slots=True)
class StaticConstraint:
    """The part of a square's placement constraint that never changes.

    ``must``: edges that must carry track (terminal ends); ``forbid``: edges
    that must not (board edge, stop squares); ``open``: (edge, neighbour)
    pairs whose constraint depends on the neighbour's tile.
    """

    must: int
    forbid: int
    open: tuple[tuple[int, int], ...]


def _static(index: int) -> StaticConstraint:
    must = forbid = 0
    open_edges: list[tuple[int, int]] = []
    for e in EDGES:
        kind = EDGE_KIND[index][e]
        if kind is EdgeKind.TERMINAL:
            must |= 1 << e
        elif kind is EdgeKind.SQUARE:
            open_edges.append((e, NEIGHBOUR[index][e]))
        else:
            forbid |= 1 << e
    return StaticConstraint(must, forbid, tuple(open_edges))


STATIC_CONSTRAINT: tuple[StaticConstraint, ...] = tuple(_static(i) for i in range(SQUARE_COUNT))

#: STOPS_NEXT_TO[square]: letters of the stops orthogonally next to it
STOPS_NEXT_TO: tuple[tuple[str, ...], ...] = tuple(
    tuple(sorted(STOP_AT[n] for n in NEIGHBOUR[i] if n in STOP_AT)) for i in range(SQUARE_COUNT)
)

#: the squares that can ever hold a tile
TILE_SQUARES: tuple[int, ...] = tuple(i for i in range(SQUARE_COUNT) if i not in STOP_AT)


def adjacent(a: int, b: int) -> bool:
    """Whether squares ``a`` and ``b`` share an edge."""
    return b in NEIGHBOUR[a]


def direction(a: int, b: int) -> int:
    """The edge of ``a`` that faces the adjacent square ``b``."""
    return NEIGHBOUR[a].index(b)
