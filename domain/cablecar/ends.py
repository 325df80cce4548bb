"""Rule 5, further travel: track must never lead into a square no tile can ever fill.

**Ruling.**  A track end must not lead into an empty square that no tile of
the set, in any rotation, could ever fill given the square's *permanent*
surroundings.  Permanent are: the board edge and stop squares (no track may
cross them), terminal fronts (track must cross them), track already laid
towards the square by any tile (track is never removed: exchanges only add
it), and the bare edges of tree tiles (never exchanged).  The bare edge of an
ordinary tile is not permanent, since an exchange can add track to it.

So a placement is refused (``dead_end``) when

* its track leads into such an empty square (e.g. a square with the board
  edge on one side, a stop on another and a tree tile's bare edge on a
  third), or
* it is a tree tile whose bare edge turns an empty square that some track
  already leads into into such a square.

The test is a table lookup: ``FILLABLE[must * 16 + forbid]`` says whether any
tile type in any rotation has track on every ``must`` edge and none on a
``forbid`` edge.  Nothing here depends on how many tiles of a type are left.
"""

from __future__ import annotations

from domain.cablecar.board import Board
from domain.cablecar.geometry import EDGES, STATIC_CONSTRAINT, STOP_AT
from domain.cablecar.tiles import DISTINCT, TILE_IDS

#: FILLABLE[must * 16 + forbid]: whether some orientation of some tile type fits
FILLABLE: tuple[bool, ...] = tuple(
    any(o.edges & must == must and not o.edges & forbid for t in TILE_IDS for o in DISTINCT[t])
    for must in range(16)
    for forbid in range(16)
)


def permanent(board: Board, square: int, skip: int) -> tuple[int, int]:
    """``(must, forbid)`` of empty ``square`` from its permanent surroundings,
    leaving out neighbour ``skip`` (the square being laid on)."""
    static = STATIC_CONSTRAINT[square]
    must, forbid = static.must, static.forbid
    cells = board.cells
    for e, n in static.open:
        if n == skip:
            continue
        cell = cells[n]
        if cell is None:
            continue
        if cell.edges >> (e ^ 2) & 1:
            must |= 1 << e
        elif cell.tree:
            forbid |= 1 << e
    return must, forbid


def end_masks(board: Board, square: int) -> tuple[int, int]:
    """What rule 5 adds to a tile on ``square``: ``(forbid, tree_must)``.

    ``forbid``: edges whose track would lead into an empty square that could
    then never be filled.  ``tree_must``: edges a *tree* tile must give track
    to, because a bare tree edge there would leave some track already leading
    into that empty square with no way on.
    """
    forbid = tree_must = 0
    cells = board.cells
    for e, n in STATIC_CONSTRAINT[square].open:
        if cells[n] is not None or n in STOP_AT:
            continue
        side = 1 << (e ^ 2)
        must_n, forbid_n = permanent(board, n, square)
        if not FILLABLE[(must_n | side) * 16 + forbid_n]:
            forbid |= 1 << e
        if must_n and not FILLABLE[must_n * 16 + (forbid_n | side)]:
            tree_must |= 1 << e
    return forbid, tree_must


def blocked_end(board: Board, square: int, edges: int, tree: bool) -> int | None:
    """The first edge of a tile (edge mask ``edges``) on ``square`` that breaks
    this ruling, or None."""
    forbid, tree_must = end_masks(board, square)
    bad = (edges & forbid) | ((tree_must & ~edges) if tree else 0)
    for e in EDGES:
        if bad >> e & 1:
            return e
    return None
