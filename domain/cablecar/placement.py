"""Placement rules: checking one laid or exchanged tile (the moves a hand can make: :mod:`domain.cablecar.candidates`).

The five placement rules become one edge constraint per square (see
:mod:`domain.cablecar.tiles`).  Across each edge of the square lies:

* the board edge: no track may lead there (rule 1, ``leads_off_board``);
* the end of a terminal loop: counts as a neighbour *with* track, so the tile
  must have track there (ruling on rule 4, ``blocks_terminal``);
* a stop square: no track may lead there (rule 2, ``leads_into_stop``);
* a tile: track must meet track and bare edge must meet bare edge (rule 4,
  ``blocks_neighbour`` when the neighbour's track would be cut off, rule 5
  ``dead_end`` when this tile's track would end at a bare edge);
* an empty square: the track can be continued later, unless no tile could
  ever fill that square (rule 5, further travel: ``dead_end``, see
  :mod:`domain.cablecar.ends`; not in games created under ``cable-car/1``).

A tile never covers a stop square (rule 3, ``covers_stop``).  An exchange
(placement on an occupied square) must keep every segment of the old tile
and add at least one (``exchange_not_superset``, ``exchange_adds_no_track``);
tree tiles are never exchanged (``tree_not_exchangeable``).

Two exchanges on adjacent squares in one turn are judged together: the first
may leave a dead end towards the second square as long as the second
exchange answers it (the result after both must be legal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.cablecar.actions import Placement
from domain.cablecar.board import Board
from domain.cablecar.ends import blocked_end, end_masks
from domain.cablecar.geometry import (
    EDGE_KIND,
    EDGES,
    NEIGHBOUR,
    STATIC_CONSTRAINT,
    STOP_AT,
    STOPS_NEXT_TO,
    TERMINAL_END,
    EdgeKind,
    adjacent,
    direction,
    on_board,
    square_index,
    square_of,
)
from domain.cablecar.tiles import ORIENTATION, TILE_IDS, Orientation
from domain.errors import IllegalAction

_EDGE_NAMES = ("north", "east", "south", "west")


@dataclass(frozen=True, slots=True)
class Laid:
    """The outcome of one accepted placement.

    ``replaced`` is the orientation an exchange took off the board (it went
    to the hand), ``stops`` the letters of stops whose tile this became.
    """

    placement: Placement
    square: int
    orientation: Orientation
    replaced: Orientation | None
    stops: tuple[str, ...]


def constraints(board: Board, square: int) -> tuple[int, int, int]:
    """``(must, forbid, tree_must)``: the edge masks a tile on ``square`` must
    satisfy now, plus the edges a tree tile must also give track to (rule 5, see :mod:`domain.cablecar.ends`)."""
    static = STATIC_CONSTRAINT[square]
    must, forbid = static.must, static.forbid
    edges = board.edges
    for e, n in static.open:
        m = edges[n]
        if m:
            if m >> (e ^ 2) & 1:
                must |= 1 << e
            else:
                forbid |= 1 << e
    if board.rules < 2:
        return must, forbid, 0
    ends, tree_must = end_masks(board, square)
    return must, forbid | ends, tree_must


def _where(square: int) -> str:
    row, col = square_of(square)
    return f"({row}, {col})"


def edge_violation(
    board: Board, square: int, orientation: Orientation, skip_edge: int | None = None
) -> IllegalAction | None:
    """The first placement rule (in rule order) ``orientation`` on ``square`` breaks, or None.

    ``skip_edge`` leaves one edge unchecked (used for adjacent double exchanges).
    """
    found: list[tuple[int, int, IllegalAction]] = []
    for e in EDGES:
        if e == skip_edge:
            continue
        has = orientation.edges >> e & 1
        kind = EDGE_KIND[square][e]
        side = _EDGE_NAMES[e]
        if kind is EdgeKind.OFF_BOARD and has:
            detail = f"rule 1: the track on the {side} edge of {_where(square)} leads off the board"
            found.append((1, e, IllegalAction("leads_off_board", detail)))
        elif kind is EdgeKind.STOP and has:
            letter = STOP_AT[NEIGHBOUR[square][e]]
            detail = f"rule 2: the track on the {side} edge of {_where(square)} leads into stop {letter}"
            found.append((2, e, IllegalAction("leads_into_stop", detail)))
        elif kind is EdgeKind.TERMINAL and not has:
            name = TERMINAL_END[(square, e)].name
            detail = (
                f"rule 4: {_where(square)} faces the end of terminal {name} on its {side} edge "
                "and must continue its track"
            )
            found.append((4, e, IllegalAction("blocks_terminal", detail)))
        elif kind is EdgeKind.SQUARE:
            n = NEIGHBOUR[square][e]
            other = board.edges[n]
            if not other:
                continue
            other_has = other >> (e ^ 2) & 1
            if other_has and not has:
                detail = f"rule 4: the track of the tile on {_where(n)} would end at the bare {side} edge of {_where(square)}"
                found.append((4, e, IllegalAction("blocks_neighbour", detail)))
            elif has and not other_has:
                detail = f"rule 5: the track on the {side} edge of {_where(square)} would end at the bare edge of the tile on {_where(n)}"
                found.append((5, e, IllegalAction("dead_end", detail)))
    if board.rules >= 2:
        end = blocked_end(board, square, orientation.edges, orientation.tree)  # only towards empty squares
        if end is not None:
            n = NEIGHBOUR[square][end]
            side = _EDGE_NAMES[end]
            if orientation.edges >> end & 1:
                detail = (f"rule 5 (further travel): the track on the {side} edge of {_where(square)} leads into "
                          f"{_where(n)}, a square no tile can ever fill")
            else:
                detail = (f"rule 5 (further travel): the bare {side} edge of this tree tile would leave the track "
                          f"leading into {_where(n)} with no way on (no tile could ever fill it)")
            found.append((5, end, IllegalAction("dead_end", detail)))
    return min(found, key=lambda f: (f[0], f[1]))[2] if found else None


def resolve(board: Board, hand: Sequence[str], placement: Placement) -> tuple[int, Orientation]:
    """Check everything about ``placement`` except its edges: the square and the tile.

    Returns ``(square, orientation)``; raises IllegalAction (``unknown_tile``,
    ``bad_rotation``, ``off_board``, ``covers_stop``, ``tile_not_in_hand``,
    ``tree_not_exchangeable``, ``exchange_not_superset``, ``exchange_adds_no_track``).
    """
    if placement.tile not in TILE_IDS:
        raise IllegalAction("unknown_tile", f"there is no tile type {placement.tile!r}")
    if not 0 <= placement.rotation <= 3:
        raise IllegalAction(
            "bad_rotation", f"rotation {placement.rotation} is not 0-3 (clockwise quarter turns)"
        )
    if not on_board(placement.row, placement.col):
        raise IllegalAction(
            "off_board", f"({placement.row}, {placement.col}) is not a square of the 12x12 board"
        )
    square = square_index(placement.row, placement.col)
    if square in STOP_AT:
        raise IllegalAction("covers_stop", f"rule 3: {_where(square)} is stop {STOP_AT[square]}'s square")
    if placement.tile not in hand:
        raise IllegalAction("tile_not_in_hand", f"there is no {placement.tile} tile in the hand")
    orientation = ORIENTATION[(placement.tile, placement.rotation)]
    old = board.cells[square]
    if old is not None:
        if old.tree:
            raise IllegalAction(
                "tree_not_exchangeable", f"the {old.tile} on {_where(square)} is a tree tile and stays"
            )
        if orientation.segments & old.segments != old.segments:
            raise IllegalAction(
                "exchange_not_superset",
                f"the {placement.tile} in rotation {placement.rotation} does not keep every segment "
                f"of the {old.tile} on {_where(square)}",
            )
        if orientation.segments == old.segments:
            raise IllegalAction(
                "exchange_adds_no_track",
                f"the {placement.tile} in rotation {placement.rotation} adds no track to {_where(square)}",
            )
    return square, orientation


def apply(board: Board, hand: tuple[str, ...], laid: Laid) -> tuple[Board, tuple[str, ...]]:
    """The board and hand after one accepted placement."""
    board = board.with_tile(laid.square, laid.orientation)
    for letter in laid.stops:
        board = board.with_stop_tile(letter, laid.square)
    i = hand.index(laid.placement.tile)
    rest = hand[:i] + hand[i + 1 :]
    if laid.replaced is not None:
        rest += (laid.replaced.tile,)
    return board, rest


def outcome(board: Board, placement: Placement, square: int, orientation: Orientation) -> Laid:
    """The :class:`Laid` record of an accepted placement (exchanged tile, stops claimed)."""
    old = board.cells[square]
    stops: tuple[str, ...] = ()
    if old is None:
        stops = tuple(letter for letter in STOPS_NEXT_TO[square] if board.stop_tile(letter) is None)
    return Laid(placement, square, orientation, old, stops)


def check_placement(
    board: Board, hand: Sequence[str], placement: Placement, skip_edge: int | None = None
) -> Laid:
    """Check one placement against the board and hand; raises IllegalAction if refused."""
    square, orientation = resolve(board, hand, placement)
    violation = edge_violation(board, square, orientation, skip_edge)
    if violation is not None:
        raise violation
    return outcome(board, placement, square, orientation)


def _joint_edge(board: Board, first: Placement, second: Placement) -> int | None:
    """The edge of ``first``'s square towards ``second``'s when both are adjacent exchanges."""
    if not (on_board(first.row, first.col) and on_board(second.row, second.col)):
        return None
    a, b = square_index(first.row, first.col), square_index(second.row, second.col)
    if board.cells[a] is None or board.cells[b] is None or not adjacent(a, b):
        return None
    return direction(a, b)


def check_turn(board: Board, hand: tuple[str, ...], placements: Sequence[Placement]) -> list[Laid]:
    """Check the one or two placements of a turn, in order; raises IllegalAction.

    Does not judge whether one placement is enough (see :func:`domain.cablecar.candidates.has_legal_pair`).
    """
    if len(placements) == 2 and placements[0].square == placements[1].square:
        raise IllegalAction("same_square_twice", "both placements of a turn are on the same square")
    skip = _joint_edge(board, placements[0], placements[1]) if len(placements) == 2 else None
    out: list[Laid] = []
    for i, placement in enumerate(placements):
        laid = check_placement(board, hand, placement, skip if i == 0 else None)
        board, hand = apply(board, hand, laid)
        out.append(laid)
    return out


# --- generation ----------------------------------------------------------------------------------
