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
A first placement changes the constraints of its four neighbours (and,
under rule 5, of the squares two away across an empty neighbour) only, and
the hand by one tile out (and one exchanged tile in).  So the candidates of
every square for *every* tile type are computed once for the board, indexed
per tile by square; the seconds after a first placement are slices of those
indexes (cut around the squares it changes) plus those squares' recomputed
candidates.  Pairs are produced with ``zip`` over slices, without a
Python-level loop per pair; :mod:`domain.cablecar.paircount` counts them
without producing them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from itertools import repeat

from domain.cablecar.actions import Placement
from domain.cablecar.board import Board
from domain.cablecar.candidates import distinct_tiles, exchanges_at, joint_firsts, square_candidates
from domain.cablecar.geometry import NEIGHBOUR, SQUARE_COUNT, STOP_AT, TILE_SQUARES, square_index
from domain.cablecar.paircount import first_counts, order_free, racing
from domain.cablecar.placement import apply, outcome
from domain.cablecar.squareindex import SquareIndex, build_index
from domain.cablecar.tiles import ORIENTATION, TILE_IDS

Pair = tuple[Placement, Placement]


Chunk = tuple[Placement, Sequence[Placement]]
#: a first placement: its square, itself, and the square of the exchange it needs (joint firsts)
First = tuple[int, Placement, int | None]


class PairTables:
    """The per-board indexes of a turn, from which its pairs are generated
    lazily, chunk by chunk (a first placement and a run of seconds), in the
    documented order: by the first's square, then tile type in hand order,
    then candidate; joint firsts (double exchanges) last.  Building them is
    a small fraction of listing every pair, so a first page costs little."""

    def __init__(self, board: Board, hand: tuple[str, ...]) -> None:
        cells = board.cells
        self.board = board
        self.hand = hand
        self.candidates = {square: square_candidates(board, square, TILE_IDS) for square in TILE_SQUARES}
        self.empties: dict[str, SquareIndex] = {}
        self.exchanges: dict[str, SquareIndex] = {}
        for t in TILE_IDS:
            self.empties[t] = build_index(
                [(s, c[t]) for s, c in self.candidates.items() if t in c and cells[s] is None]
            )
            self.exchanges[t] = build_index(
                [(s, c[t]) for s, c in self.candidates.items() if t in c and cells[s] is not None]
            )

    @functools.cached_property
    def firsts(self) -> tuple[First, ...]:
        """Every first placement, in the documented order: ``(square, first,
        partner)``, ``partner`` being the square of the second exchange a
        joint first needs (None for a first legal alone)."""
        out: list[First] = []
        hand = self.hand
        for square in TILE_SQUARES:
            for t in distinct_tiles(hand):
                out += [(square, first, None) for first in self.candidates[square].get(t, ())]
        out += [(square_index(f.row, f.col), f, partner) for f, partner in joint_firsts(self.board, hand)]
        return tuple(out)

    def seconds_of(self, k: int) -> Iterator[Chunk]:
        """The pairs starting with first ``k`` of :attr:`firsts`, as runs of seconds."""
        board, hand = self.board, self.hand
        square, first, partner = self.firsts[k]
        if partner is None:
            yield from _after(board, hand, square, first, self.empties, self.exchanges)
            return
        board1, hand1 = apply(board, hand, outcome(board, first, square, ORIENTATION[(first.tile, first.rotation)]))
        seconds = tuple(exchanges_at(board1, partner, hand1))
        if seconds:
            yield first, seconds

    def chunks(self) -> Iterator[Chunk]:
        """Every pair, as ``(first, seconds)`` runs, in the documented order."""
        for k in range(len(self.firsts)):
            yield from self.seconds_of(k)

    def pairs_of(self, k: int) -> list[Pair]:
        """The pairs starting with first ``k`` of :attr:`firsts`."""
        out: list[Pair] = []
        for first, seconds in self.seconds_of(k):
            out += zip(repeat(first), seconds, strict=False)
        return out

    def first_counts(self) -> list[int]:
        """How many pairs each first of :attr:`firsts` starts, without building them."""
        return first_counts(self.board, self.hand, self.candidates, self.empties, self.exchanges)

    def pairs(self) -> Iterator[Pair]:
        """Every pair, one at a time, in the documented order."""
        for first, seconds in self.chunks():
            yield from zip(repeat(first), seconds, strict=False)

    def count(self) -> int:
        """How many pairs :meth:`pairs` yields, without building them (see
        :mod:`domain.cablecar.paircount`)."""
        return sum(self.first_counts())


def legal_pairs(board: Board, hand: tuple[str, ...]) -> list[Pair]:
    """Every legal pair of placements (see the module docstring for which)."""
    return list(PairTables(board, hand).pairs())


def _after(
    board: Board,
    hand: tuple[str, ...],
    square: int,
    first: Placement,
    empties: dict[str, SquareIndex],
    exchanges: dict[str, SquareIndex],
) -> Iterator[Chunk]:
    """The pairs starting with the legal-alone ``first`` on ``square``, as runs of seconds."""
    board1, hand1 = apply(
        board, hand, outcome(board, first, square, ORIENTATION[(first.tile, first.rotation)])
    )
    tiles1 = distinct_tiles(hand1)
    neighbours = _recomputed(board, square)
    holes = sorted([square, *neighbours])
    on_empty = board.cells[square] is None
    # racers below the first's square are skipped by its slice (which starts after it): added back
    racers = [r for r in racing(board, square) if r < square and r not in neighbours] if on_empty else []
    for t in tiles1:
        for chunk in _untouched(empties[t], exchanges[t], square, on_empty, holes, racers):
            if chunk:
                yield first, chunk
    for n in neighbours:
        if on_empty and n < square and board.cells[n] is None and order_free(board, n, square):
            continue  # listed with n first
        for found in square_candidates(board1, n, tiles1).values():
            if found:
                yield first, found


def _recomputed(board: Board, square: int) -> list[int]:
    """The squares whose candidates a tile on ``square`` may change: its
    tile-square neighbours, then (under rule 5) the squares two away."""
    neighbours = [n for n in NEIGHBOUR[square] if n >= 0 and n not in STOP_AT]
    if board.rules >= 2:
        # rule 5 (further travel) looks one square further: the first tile changes what
        # the empty squares next to it can still take, so their neighbours are recomputed too
        ring = {m for n in neighbours if board.cells[n] is None for m in NEIGHBOUR[n] if m >= 0}
        neighbours += sorted(ring - {square, *neighbours} - STOP_AT.keys())
    return neighbours


def _untouched(
    empties: SquareIndex, exchanges: SquareIndex, square: int, on_empty: bool, holes: list[int], racers: list[int]
) -> list[tuple[Placement, ...]]:
    """One tile's seconds (from its ``empties`` and ``exchanges`` indexes) on
    the squares a first on ``square`` leaves unchanged, as index slices: the
    empty squares after it (every one, after an exchange) and the ``racers``
    before it, then every exchange, all outside the ``holes``."""
    if on_empty:
        slices = list(empties.span(square + 1, SQUARE_COUNT, holes))
        for racer in racers:
            slices += empties.span(racer, racer + 1, ())
    else:
        slices = list(empties.span(0, SQUARE_COUNT, holes))
    slices += exchanges.span(0, SQUARE_COUNT, holes)
    return slices
