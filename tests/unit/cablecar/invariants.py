"""Whole-board readings the tests check invariants with (no game code needs
them: the rules check one placement at a time, :mod:`domain.cablecar.placement`)."""

from __future__ import annotations

from collections import Counter

from domain.cablecar.board import Board
from domain.cablecar.components import COMPONENTS
from domain.cablecar.ends import FILLABLE, permanent
from domain.cablecar.geometry import STOP_AT, TILE_SQUARES
from domain.cablecar.placement import edge_violation
from domain.errors import IllegalAction


def tile_supply() -> Counter[str]:
    """Every tile of the game (all 126), counted by type."""
    return Counter({t.id: t.total for t in COMPONENTS.tile_types})


def board_violations(board: Board) -> list[IllegalAction]:
    """Every placement rule the tiles on ``board`` break against each other."""
    out: list[IllegalAction] = []
    for square, orientation in board.placed():
        violation = edge_violation(board, square, orientation)
        if violation is not None:
            out.append(violation)
        if square in STOP_AT:
            out.append(IllegalAction("covers_stop", f"a tile covers stop {STOP_AT[square]}"))
    return out


def unfillable_squares(board: Board) -> list[int]:
    """Empty squares some track leads into that no tile can ever fill (rule 5, further travel)."""
    out: list[int] = []
    for square in TILE_SQUARES:
        if board.cells[square] is None:
            must, forbid = permanent(board, square, -1)
            if must and not FILLABLE[must * 16 + forbid]:
                out.append(square)
    return out
