"""Which placements a hand can make on a board: the candidates of one square,
single placements, joint exchanges and the second placement after a first.
The legal actions (:mod:`domain.cablecar.legal`) and the pair search
(:mod:`domain.cablecar.pairs`) build on them; the rules each placement must
keep are :mod:`domain.cablecar.placement`'s."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from domain.cablecar.actions import Placement
from domain.cablecar.board import Board
from domain.cablecar.geometry import (
    EDGE_KIND,
    NEIGHBOUR,
    STOP_AT,
    TILE_SQUARES,
    EdgeKind,
    square_index,
    square_of,
)
from domain.cablecar.placement import apply, constraints, edge_violation, outcome, resolve
from domain.cablecar.state import CableCarState
from domain.cablecar.tiles import ORIENTATION, TREE_TILES, Orientation, fits, fitting, upgrades
from domain.errors import IllegalAction


def _placement(square: int, orientation: Orientation) -> Placement:
    row, col = square_of(square)
    return Placement(orientation.tile, row, col, orientation.rotation)


@functools.cache
def _laid_on_empty(square: int, tile: str, must: int, forbid: int) -> tuple[Placement, ...]:
    """Placements of ``tile`` on empty ``square`` under a constraint (memoised: pure)."""
    return tuple(_placement(square, o) for o in fitting(tile, must, forbid))


@functools.cache
def _exchanged(square: int, tile: str, old_segments: int, must: int, forbid: int) -> tuple[Placement, ...]:
    """Exchanges of ``tile`` for a tile with ``old_segments`` under a constraint (memoised: pure)."""
    old = next(o for o in ORIENTATION.values() if o.segments == old_segments)
    return tuple(_placement(square, o) for o in upgrades(tile, old) if fits(o, must, forbid))


def square_candidates(board: Board, square: int, tiles: Sequence[str]) -> dict[str, tuple[Placement, ...]]:
    """Per tile of ``tiles``: its legal placements on ``square`` (lowest rotation per layout)."""
    out: dict[str, tuple[Placement, ...]] = {}
    if not tiles or square in STOP_AT:
        return out
    must, forbid, tree_must = constraints(board, square)
    old = board.cells[square]
    if old is None:
        for t in tiles:
            found = _laid_on_empty(square, t, must | tree_must if t in TREE_TILES else must, forbid)
            if found:
                out[t] = found
    elif not old.tree:
        for t in tiles:
            found = _exchanged(square, t, old.segments, must | tree_must if t in TREE_TILES else must, forbid)
            if found:
                out[t] = found
    return out


def distinct_tiles(hand: Sequence[str]) -> tuple[str, ...]:
    """The tile ids of ``hand`` without repeats, in hand order."""
    return tuple(dict.fromkeys(hand))


def single_placements(board: Board, hand: Sequence[str], exclude: int | None = None) -> list[Placement]:
    """Every placement of a tile from ``hand`` that is legal on ``board`` by itself.

    One placement per distinct orientation (the lowest equivalent rotation);
    ``exclude`` skips one square (the square already used this turn).
    """
    tiles = distinct_tiles(hand)
    out: list[Placement] = []
    for square in TILE_SQUARES:
        if square != exclude:
            for found in square_candidates(board, square, tiles).values():
                out.extend(found)
    return out


def _joint_partner(board: Board, square: int, orientation: Orientation) -> int | None:
    """The square whose exchange could answer this exchange's only dead end, if any.

    ``orientation`` on occupied ``square`` must break exactly one edge
    constraint, a dead end towards an occupied, non-tree neighbour.
    """
    must, forbid, tree_must = constraints(board, square)
    if orientation.tree:
        must |= tree_must
    bad = (must & ~orientation.edges) | (orientation.edges & forbid)
    if bad == 0 or bad & (bad - 1) or bad & must:
        return None
    edge = bad.bit_length() - 1
    if EDGE_KIND[square][edge] is not EdgeKind.SQUARE:
        return None
    n = NEIGHBOUR[square][edge]
    neighbour = board.cells[n]
    return n if neighbour is not None and not neighbour.tree else None


def exchanges_at(board: Board, square: int, hand: Sequence[str]) -> list[Placement]:
    """Every legal exchange on ``square`` with a tile from ``hand``."""
    out: list[Placement] = []
    for found in square_candidates(board, square, distinct_tiles(hand)).values():
        out.extend(found)
    return out


def joint_firsts(board: Board, hand: Sequence[str]) -> Iterator[tuple[Placement, int]]:
    """Exchanges illegal alone that an adjacent second exchange could make legal."""
    tiles = distinct_tiles(hand)
    for square in TILE_SQUARES:
        old = board.cells[square]
        if old is None or old.tree:
            continue
        for t in tiles:
            for o in upgrades(t, old):
                partner = _joint_partner(board, square, o)
                if partner is not None:
                    yield _placement(square, o), partner


def seconds_after(board: Board, hand: tuple[str, ...], first: Placement) -> list[Placement]:
    """Every placement legal as the second of a turn whose first is ``first``.

    Empty when ``first`` is illegal and no adjacent second exchange redeems it.
    """
    try:
        square, orientation = resolve(board, hand, first)
    except IllegalAction:
        return []
    violation = edge_violation(board, square, orientation)
    laid = outcome(board, first, square, orientation)
    board1, hand1 = apply(board, hand, laid)
    if violation is None:
        return single_placements(board1, hand1, exclude=square)
    partner = _joint_partner(board, square, orientation) if board.cells[square] is not None else None
    if partner is None:
        return []
    return exchanges_at(board1, partner, hand1)


def has_legal_pair(board: Board, hand: tuple[str, ...]) -> bool:
    """Whether some legal pair of placements exists (stops at the first found)."""
    for first in single_placements(board, hand):
        if seconds_after(board, hand, first):
            return True
    for first, partner in joint_firsts(board, hand):
        square = square_index(first.row, first.col)
        laid = outcome(board, first, square, ORIENTATION[(first.tile, first.rotation)])
        board1, hand1 = apply(board, hand, laid)
        if exchanges_at(board1, partner, hand1):
            return True
    return False


def can_lay(board: Board, hand: tuple[str, ...]) -> bool:
    """Whether the hand can lay anything at all (one tile, or an adjacent double exchange)."""
    tiles = distinct_tiles(hand)
    for square in TILE_SQUARES:
        if square_candidates(board, square, tiles):
            return True
    return has_legal_pair(board, hand)


def legal_placements(state: CableCarState, seat: int, first: Placement | None = None) -> list[Placement]:
    """Single placements ``seat`` may make now, or (with ``first``) as the turn's second tile.

    Judged on the board and the seat's hand only (not whose turn it is); a
    riding seat or a finished game has none.  With ``first``, the result is
    empty when ``first`` is illegal and no adjacent second exchange can make
    the pair legal.
    """
    player = state.players[seat]
    if state.finished or player.riding:
        return []
    if first is None:
        return single_placements(state.board, player.hand)
    return seconds_after(state.board, player.hand, first)
