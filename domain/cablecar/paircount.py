"""How many pairs a turn has, without listing them (``PairTables.count``).

What a first placement on square ``s`` changes for the seconds
--------------------------------------------------------------
* the hand: its tile goes out (and, for an exchange, the old tile comes in);
* each neighbour ``n`` of ``s``: the edge it shares with ``s`` now faces
  track or a bare edge, instead of an empty square or the old tile;
* under rule 5 (further travel, ``board.rules >= 2``), each square ``m`` two
  away across an empty common neighbour ``k``: ``k``'s permanent
  surroundings gain the first's track towards ``k`` (or a tree tile's bare
  edge), which may change whether ``m`` may still send track into ``k``
  (its rule-5 bits for that edge, :func:`domain.cablecar.ends.end_masks`).

Every other square reads nothing the first changes.  So the seconds after a
first are: the board's candidates of the tiles left on every square but
``s`` and its neighbours (the lengths of :class:`~domain.cablecar.pairs.PairTables`'
index slices), plus the neighbours' candidates under their new edge, plus,
for each two-away square whose rule-5 bits do change, its new count minus
its old.  That is the list :func:`domain.cablecar.pairs._after` generates,
which recomputes every two-away square: a square whose constraint is
unchanged has the same candidates either way, and the two lists skip the
same lower squares (order-free pairs are listed once; racers for a stop in
both orders).  Counts of candidates are read from per-tile tables indexed
by the constraint, not from boards.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from domain.cablecar.actions import Placement
from domain.cablecar.board import Board
from domain.cablecar.candidates import distinct_tiles, exchanges_at, joint_firsts
from domain.cablecar.ends import FILLABLE, permanent
from domain.cablecar.geometry import (
    NEIGHBOUR,
    SQUARE_COUNT,
    STATIC_CONSTRAINT,
    STOP_AT,
    STOP_SQUARE,
    STOPS_NEXT_TO,
    TILE_SQUARES,
    square_index,
)
from domain.cablecar.placement import apply, constraints, outcome
from domain.cablecar.squareindex import SquareIndex
from domain.cablecar.tiles import DISTINCT, ORIENTATION, TREE_TILES, Orientation, fits, fitting, upgrades

_EMPTY = -1  #: the "old tile" key of an empty square
_TREE = -2  #: ... of a square holding a tree tile (never exchanged: no candidates)


def order_free(board: Board, a: int, b: int) -> bool:
    """Whether empty squares ``a`` and ``b`` may be laid in either order with one result."""
    if not STOPS_NEXT_TO[a] or not STOPS_NEXT_TO[b]:
        return True  # most squares touch no stop
    shared = set(STOPS_NEXT_TO[a]) & set(STOPS_NEXT_TO[b])
    return all(board.stop_tile(letter) is not None for letter in shared)


def racing(board: Board, square: int) -> list[int]:
    """Empty squares that race ``square`` for a stop without a tile (order matters)."""
    out: list[int] = []
    for letter in STOPS_NEXT_TO[square]:
        if board.stop_tile(letter) is None:
            out += [
                n for n in NEIGHBOUR[STOP_SQUARE[letter]] if n >= 0 and n != square and board.cells[n] is None
            ]
    return sorted(out)


@functools.cache
def _table(tile: str, old: int) -> tuple[int, ...]:
    """How many candidates ``tile`` has on a square, by ``must * 16 + forbid``:
    laid on an empty square (``old`` is ``_EMPTY``) or exchanged for a tile
    with segment mask ``old``."""
    if old == _EMPTY:
        return tuple(len(fitting(tile, must, forbid)) for must in range(16) for forbid in range(16))
    replaced = next(o for t in DISTINCT for o in DISTINCT[t] if o.segments == old)
    ups = upgrades(tile, replaced)
    return tuple(sum(fits(o, must, forbid) for o in ups) for must in range(16) for forbid in range(16))


@functools.lru_cache(maxsize=1 << 16)
def _seconds(old: int, must: int, forbid: int, tree_must: int, tiles: tuple[str, ...]) -> int:
    """How many candidates ``tiles`` have together on a square (``old`` its
    tile key) under ``(must, forbid, tree_must)``, as ``square_candidates``
    would list them (pure: memoised across boards and hands)."""
    if old == _TREE:
        return 0
    plain = must * 16 + forbid
    tree = (must | tree_must) * 16 + forbid
    return sum(_table(t, old)[tree if t in TREE_TILES else plain] for t in tiles)


def _end_bits(must: int, forbid: int, h: int) -> int:
    """Rule-5 bits of the square across edge ``h`` of an empty square with
    permanent ``(must, forbid)``: 1 if its track may not lead in, 2 if a tree
    tile there must give it track (see ``ends.end_masks``)."""
    side = 1 << h
    bits = 0 if FILLABLE[(must | side) * 16 + forbid] else 1
    if must and not FILLABLE[must * 16 + (forbid | side)]:
        bits |= 2
    return bits


#: _END_BITS[(must * 16 + forbid) * 4 + h]: :func:`_end_bits`, tabulated
_END_BITS: tuple[int, ...] = tuple(
    _end_bits(must, forbid, h) for must in range(16) for forbid in range(16) for h in range(4)
)

#: per two-away square ``m``: ``(d, f, bits if track, if tree-bare, if bare, now)`` for each
#: empty common neighbour in direction ``d`` of the first's square and ``f`` of ``m``
RingEntry = tuple[int, int, int, int, int, int]


class _Counter:
    """The per-board facts a count reads, each computed once."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._constraints: dict[int, tuple[int, int, int]] = {}
        self._permanent: dict[int, tuple[int, int]] = {}
        self.old = tuple(
            _EMPTY if cell is None else _TREE if cell.tree else cell.segments for cell in board.cells
        )

    def constraints(self, square: int) -> tuple[int, int, int]:
        """``placement.constraints`` of ``square`` on the board."""
        found = self._constraints.get(square)
        if found is None:
            found = self._constraints[square] = constraints(self.board, square)
        return found

    def permanent(self, square: int) -> tuple[int, int]:
        """``ends.permanent`` of empty ``square``, every neighbour included."""
        found = self._permanent.get(square)
        if found is None:
            found = self._permanent[square] = permanent(self.board, square, -1)
        return found

    def ring(self, s: int) -> list[tuple[int, list[RingEntry]]]:
        """The squares two away from ``s`` whose rule-5 bits towards an empty
        common neighbour ``k`` may change with a tile on ``s``, with how."""
        cells = self.board.cells
        by_m: dict[int, list[RingEntry]] = {}
        for d, k in enumerate(NEIGHBOUR[s]):
            if k < 0 or k in STOP_AT or cells[k] is not None:
                continue
            pm, pf = self.permanent(k)
            for h, track, tree, bare, now in _k_changes(pm, pf, d ^ 2, _OPEN_EDGES[k]):
                by_m.setdefault(NEIGHBOUR[k][h], []).append((d, h ^ 2, track, tree, bare, now))
        return list(by_m.items())


#: _OPEN_EDGES[k]: the edges of square ``k`` that face another tile square
_OPEN_EDGES: tuple[tuple[int, ...], ...] = tuple(tuple(e for e, _ in c.open) for c in STATIC_CONSTRAINT)


@functools.lru_cache(maxsize=4096)
def _k_changes(
    pm: int, pf: int, g: int, open_edges: tuple[int, ...]
) -> tuple[tuple[int, int, int, int, int], ...]:
    """For an empty square ``k`` with permanent ``(pm, pf)`` and a tile about
    to be laid across its edge ``g``: each other open edge ``h`` whose far
    square's rule-5 bits towards ``k`` would differ with that tile's track
    there, a tree tile's bare edge, or an ordinary bare edge, as
    ``(h, bits if track, if tree-bare, if bare, bits now)`` (pure: memoised)."""
    out = []
    gb = 1 << g
    for h in open_edges:
        if h == g:
            continue
        # permanent(k) as the far square sees it (without its own tile), then without the laid tile
        bm, bf = pm & ~(1 << h), pf & ~(1 << h)
        cm, cf = bm & ~gb, bf & ~gb
        now = _END_BITS[(bm * 16 + bf) * 4 + h]
        track = _END_BITS[((cm | gb) * 16 + cf) * 4 + h]
        tree = _END_BITS[(cm * 16 + (cf | gb)) * 4 + h]
        bare = _END_BITS[(cm * 16 + cf) * 4 + h]
        if track != now or tree != now or bare != now:
            out.append((h, track, tree, bare, now))
    return tuple(out)


def first_counts(
    board: Board,
    hand: tuple[str, ...],
    candidates: Mapping[int, Mapping[str, tuple[Placement, ...]]],
    empties: Mapping[str, SquareIndex],
    exchanges: Mapping[str, SquareIndex],
) -> list[int]:
    """How many pairs each first placement starts, in the order
    ``PairTables.firsts`` lists the firsts (joint firsts last): a pair is
    found by its index without listing the pairs before it."""
    counter = _Counter(board)
    cells = board.cells
    further = board.rules >= 2
    tiles = distinct_tiles(hand)
    out: list[int] = []
    for s in TILE_SQUARES:
        found = candidates[s]
        laid = [t for t in tiles if t in found]
        if not laid:
            continue
        on_empty = cells[s] is None
        holes, near = _near(counter, s, on_empty)
        racers = [r for r in racing(board, s) if r < s] if on_empty else []
        # two-away squares are not holes: only a change of their rule-5 bits is added (as a
        # difference), and only where _after would list them (the index skips the same ones)
        ring = [
            (m, entries)
            for m, entries in (counter.ring(s) if further else ())
            if not (on_empty and m < s and cells[m] is None and order_free(board, m, s))
        ]
        unchanged: dict[str, int] = {}  # per tile left: its seconds on squares the first does not touch
        cell = cells[s]
        old_tile = () if cell is None else (cell.tile,)  # an exchange takes it back into the hand
        for t in laid:
            i = hand.index(t)
            tiles1 = distinct_tiles(hand[:i] + hand[i + 1 :] + old_tile)
            per_first = 0
            for t1 in tiles1:
                n_t1 = unchanged.get(t1)
                if n_t1 is None:
                    n_t1 = unchanged[t1] = _untouched(empties[t1], exchanges[t1], s, on_empty, holes, racers)
                per_first += n_t1
            _count_firsts(out, found[t], per_first, near, ring, counter, tiles1)
    for first, partner in joint_firsts(board, hand):
        square = square_index(first.row, first.col)
        board1, hand1 = apply(
            board, hand, outcome(board, first, square, ORIENTATION[(first.tile, first.rotation)])
        )
        out.append(len(exchanges_at(board1, partner, hand1)))
    return out


#: per counted neighbour of a first's square: the edge towards it, its tile key, its
#: constraint without its edge towards the first's square, and that edge's bit
NearEntry = tuple[int, int, int, int, int, int]


def _near(counter: _Counter, s: int, on_empty: bool) -> tuple[list[int], list[NearEntry]]:
    """The holes a first on ``s`` cuts in the board's index slices (``s`` and
    its tile-square neighbours, sorted), and the neighbours whose seconds are
    counted afresh: that bit of must/forbid/tree_must comes from ``s`` alone,
    nothing else about them changes."""
    board = counter.board
    holes = [s]
    near: list[NearEntry] = []
    for d, n in enumerate(NEIGHBOUR[s]):
        if n < 0 or n in STOP_AT:
            continue
        holes.append(n)
        if on_empty and n < s and board.cells[n] is None and order_free(board, n, s):
            continue  # listed with n first
        bit = 1 << (d ^ 2)
        must, forbid, tree_must = counter.constraints(n)
        near.append((d, counter.old[n], must & ~bit, forbid & ~bit, tree_must & ~bit, bit))
    holes.sort()
    return holes, near


def _untouched(
    e: SquareIndex, x: SquareIndex, s: int, on_empty: bool, holes: list[int], racers: list[int]
) -> int:
    """How many seconds of one tile (its empty-square index ``e`` and
    exchange index ``x``) lie on squares a first on ``s`` does not touch: the
    empty squares after ``s`` (every one, after an exchange) and the lower
    racers, and every exchange, all outside the ``holes``."""
    n = e.span_len(s + 1, SQUARE_COUNT, holes) if on_empty else e.span_len(0, SQUARE_COUNT, holes)
    n += sum(e.span_len(r, r + 1, ()) for r in racers)
    if x.placements:
        n += x.span_len(0, SQUARE_COUNT, holes)
    return n


def _count_firsts(
    out: list[int],
    firsts: Sequence[Placement],
    per_first: int,
    near: Sequence[NearEntry],
    ring: Sequence[tuple[int, list[RingEntry]]],
    counter: _Counter,
    tiles1: tuple[str, ...],
) -> None:
    """Append to ``out`` how many pairs each of ``firsts`` (one tile's, on
    one square) starts: the ``per_first`` seconds it leaves untouched, its
    neighbours' seconds under the edge it gives them, and the change it
    makes to two-away squares."""
    for first in firsts:
        total = per_first
        o = ORIENTATION[(first.tile, first.rotation)]
        edges = o.edges
        for d, old, must, forbid, tree_must, bit in near:
            if edges >> d & 1:
                total += _seconds(old, must | bit, forbid, tree_must, tiles1)
            else:
                total += _seconds(old, must, forbid | bit, tree_must, tiles1)
        for m, entries in ring:
            total += _ring_delta(counter, m, entries, o, tiles1)
        out.append(total)


def _ring_delta(
    counter: _Counter, m: int, entries: Sequence[RingEntry], o: Orientation, tiles: tuple[str, ...]
) -> int:
    """How many more (or fewer) seconds two-away square ``m`` has after ``o``."""
    must, forbid, tree_must = counter.constraints(m)
    new_forbid, new_tree_must = forbid, tree_must
    changed = False
    for d, f, track, tree, bare, now in entries:
        bits = track if o.edges >> d & 1 else tree if o.tree else bare
        if bits != now:
            changed = True
            edge = 1 << f  # only rule 5 sets this bit of m: k is empty
            new_forbid = new_forbid & ~edge | (edge if bits & 1 else 0)
            new_tree_must = new_tree_must & ~edge | (edge if bits & 2 else 0)
    if not changed:
        return 0
    old = counter.old[m]
    return _seconds(old, must, new_forbid, new_tree_must, tiles) - _seconds(
        old, must, forbid, tree_must, tiles
    )
