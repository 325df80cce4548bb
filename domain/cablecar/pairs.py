"""Fast enumeration of every legal pair of placements for one turn.

Which pairs are listed
----------------------
Every legal ordered pair, adjacent double exchanges included, each
placement in the lowest rotation of its distinct track layout.  Two
placements on *empty* squares give the same result in either order, and both
orders are legal (each is checked against the other's absence or presence,
and the edge they may share is consistent in the final board), unless both
squares touch one stop without a tile (the first would claim it).  Such an
order-free pair is listed once, the lower square first; pairs with an
exchange, or racing for a stop, are listed in every legal order.

How it is fast
--------------
A first placement changes the constraints of its four neighbours only, and
the hand by one tile out (and one exchanged tile in).  So the candidates of
every square for *every* tile type are computed once for the board, indexed
per tile by square; the seconds after a first placement are slices of those
indexes (cut around the first's square and its neighbours) plus the
neighbours' recomputed candidates.  Pairs are produced with ``zip`` over
slices, without a Python-level loop per pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat

from domain.cablecar.actions import Placement
from domain.cablecar.board import Board
from domain.cablecar.geometry import (
    NEIGHBOUR,
    SQUARE_COUNT,
    STOP_AT,
    STOP_SQUARE,
    STOPS_NEXT_TO,
    TILE_SQUARES,
    square_index,
)
from domain.cablecar.placement import (
    apply,
    distinct_tiles,
    exchanges_at,
    joint_firsts,
    outcome,
    square_candidates,
)
from domain.cablecar.tiles import ORIENTATION, TILE_IDS

Pair = tuple[Placement, Placement]


@dataclass(frozen=True, slots=True)
class _Index:
    """Placements of one tile type, sorted by square.

    ``start[s]`` is the position of the first placement on a square ``>= s``
    (``start[SQUARE_COUNT]`` is the length), so squares ``[a, b)`` are the
    slice ``placements[start[a]:start[b]]``.
    """

    placements: tuple[Placement, ...]
    start: tuple[int, ...]

    def span(self, low: int, high: int, holes: Sequence[int]) -> Iterator[tuple[Placement, ...]]:
        """The placements on squares ``[low, high)`` except the sorted ``holes``, as slices."""
        a = low
        for hole in holes:
            if low <= hole < high:
                if hole > a:
                    yield self.placements[self.start[a] : self.start[hole]]
                a = max(a, hole + 1)
        if a < high:
            yield self.placements[self.start[a] : self.start[high]]


def _build_index(per_square: Sequence[tuple[int, tuple[Placement, ...]]]) -> _Index:
    placements: list[Placement] = []
    start = [0] * (SQUARE_COUNT + 1)
    by_square = dict(per_square)
    for square in range(SQUARE_COUNT):
        start[square] = len(placements)
        placements.extend(by_square.get(square, ()))
    start[SQUARE_COUNT] = len(placements)
    return _Index(tuple(placements), tuple(start))


def _order_free(board: Board, a: int, b: int) -> bool:
    """Whether empty squares ``a`` and ``b`` may be laid in either order with one result."""
    shared = set(STOPS_NEXT_TO[a]) & set(STOPS_NEXT_TO[b])
    return all(board.stop_tile(letter) is not None for letter in shared)


def _racing(board: Board, square: int) -> list[int]:
    """Empty squares that race ``square`` for a stop without a tile (order matters)."""
    out: list[int] = []
    for letter in STOPS_NEXT_TO[square]:
        if board.stop_tile(letter) is None:
            out += [
                n for n in NEIGHBOUR[STOP_SQUARE[letter]] if n >= 0 and n != square and board.cells[n] is None
            ]
    return sorted(out)


def legal_pairs(board: Board, hand: tuple[str, ...]) -> list[Pair]:
    """Every legal pair of placements (see the module docstring for which)."""
    cells = board.cells
    candidates = {square: square_candidates(board, square, TILE_IDS) for square in TILE_SQUARES}
    empties: dict[str, _Index] = {}
    exchanges: dict[str, _Index] = {}
    for t in TILE_IDS:
        empties[t] = _build_index([(s, c[t]) for s, c in candidates.items() if t in c and cells[s] is None])
        exchanges[t] = _build_index(
            [(s, c[t]) for s, c in candidates.items() if t in c and cells[s] is not None]
        )
    pairs: list[Pair] = []
    for square in TILE_SQUARES:
        for t in distinct_tiles(hand):
            for first in candidates[square].get(t, ()):
                pairs.extend(_after(board, hand, square, first, empties, exchanges))
    for first, partner in joint_firsts(board, hand):
        square = square_index(first.row, first.col)
        board1, hand1 = apply(
            board, hand, outcome(board, first, square, ORIENTATION[(first.tile, first.rotation)])
        )
        pairs.extend((first, second) for second in exchanges_at(board1, partner, hand1))
    return pairs


def _after(
    board: Board,
    hand: tuple[str, ...],
    square: int,
    first: Placement,
    empties: dict[str, _Index],
    exchanges: dict[str, _Index],
) -> Iterable[Pair]:
    """The pairs starting with the legal-alone ``first`` on ``square``."""
    board1, hand1 = apply(
        board, hand, outcome(board, first, square, ORIENTATION[(first.tile, first.rotation)])
    )
    tiles1 = distinct_tiles(hand1)
    neighbours = [n for n in NEIGHBOUR[square] if n >= 0 and n not in STOP_AT]
    if board.rules >= 2:
        # rule 5 (further travel) looks one square further: the first tile changes what
        # the empty squares next to it can still take, so their neighbours are recomputed too
        ring = {m for n in neighbours if board.cells[n] is None for m in NEIGHBOUR[n] if m >= 0}
        neighbours += sorted(ring - {square, *neighbours} - STOP_AT.keys())
    holes = sorted([square, *neighbours])
    recomputed = set(neighbours)
    on_empty = board.cells[square] is None
    out: list[Pair] = []
    for t in tiles1:
        if on_empty:
            slices = list(empties[t].span(square + 1, SQUARE_COUNT, holes))
            for racer in _racing(board, square):
                if racer < square and racer not in recomputed:
                    slices += empties[t].span(racer, racer + 1, ())
        else:
            slices = list(empties[t].span(0, SQUARE_COUNT, holes))
        slices += exchanges[t].span(0, SQUARE_COUNT, holes)
        for chunk in slices:
            out.extend(zip(repeat(first), chunk, strict=False))
    for n in neighbours:
        if on_empty and n < square and board.cells[n] is None and _order_free(board, n, square):
            continue  # listed with n first
        for found in square_candidates(board1, n, tiles1).values():
            out.extend(zip(repeat(first), found, strict=False))
    return out
