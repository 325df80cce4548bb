"""The cable-car line planner: plan a track through the route's stops, build it, ride.

Each turn the bot rebuilds the board from its seat's view (the board, stops
and hands are public; its own line and route are under ``me``) and plans the
cheapest track from one of its terminals to the other through a tile of
every stop of its route.  The plan is a Dijkstra search over
``(square, entry edge, stops passed)``: driving over a tile that already
joins the two edges costs almost nothing, an empty square costs a tile (more
when only an unusual tile would fit its neighbours), an exchange that adds
the missing segment costs more.  It then lays the two tiles that advance the
plan most (tiles next to a stop of its route first, since the first tile
laid there becomes the stop's tile), fills up with tiles that keep away
from its plan when the hand cannot help, starts the ride as soon as the
network is complete (under ``cable-car/4`` it must: then ``start_ride`` is
all that is listed), and rolls.  Draws from riders' hands (``cable-car/4``:
only once the pile is empty) take a tile the plan needs, else the pile when
it is offered (``/2``-``/3``), else the first tile offered.

It reads nothing but the view and calls only the pure rules in ``domain/``.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.cablecar.actions import Placement
from domain.cablecar.board import Board
from domain.cablecar.candidates import (
    exchanges_at,
    joint_firsts,
    seconds_after,
    single_placements,
    square_candidates,
)
from domain.cablecar.geometry import (
    EDGE_KIND,
    EDGES,
    NEIGHBOUR,
    SEGMENT_BIT,
    STOP_SQUARE,
    TERMINAL_END,
    TERMINALS,
    EdgeKind,
    square_index,
    square_of,
    terminal_edge,
    terminal_squares,
)
from domain.cablecar.network import line_terminals
from domain.cablecar.placement import apply, check_turn, constraints, outcome
from domain.cablecar.tiles import DISTINCT, ORIENTATION, TILE_IDS, TREE_TILES, upgrades
from domain.errors import IllegalAction

JSONDict = dict[str, Any]

#: what a tile type costs the plan when it has to be laid (common tiles are cheap)
_TILE_COST = {"straight": 1.0, "curve": 1.0}
_OTHER_COST = 1.3
_TREE_COST = 1.6
DRIVE_COST = 0.05
EXCHANGE_COST = 2.2
#: the six segments, as (edge a, edge b, bit)
SEGMENTS = tuple((min(p), max(p), bit) for p, bit in SEGMENT_BIT.items())


def _tile_cost(tile: str) -> float:
    return _TILE_COST.get(tile, _TREE_COST if tile in TREE_TILES else _OTHER_COST)


def _fit_table() -> dict[tuple[int, int, int], float]:
    """(must, forbid, segment bit) -> the cheapest tile with that segment fitting there."""
    table: dict[tuple[int, int, int], float] = {}
    for must in range(16):
        for forbid in range(16):
            for _, _, bit in SEGMENTS:
                costs = [
                    _tile_cost(t)
                    for t in TILE_IDS
                    for o in DISTINCT[t]
                    if o.segments & bit and o.edges & must == must and not o.edges & forbid
                ]
                if costs:
                    table[(must, forbid, bit)] = min(costs)
    return table


FIT_COST = _fit_table()


@dataclass(frozen=True, slots=True)
class Step:
    """One square of a planned track: entered by ``entry``, left by ``exit``."""

    square: int
    entry: int
    exit: int
    work: str  # "drive" (track already there), "lay" (empty square) or "exchange"


def board_from_view(view: JSONDict) -> Board:
    """The board of a cable-car view (tiles and stop tiles)."""
    board = Board.empty()
    for t in view["tiles"]:
        board = board.with_tile(square_index(t["row"], t["col"]), ORIENTATION[(t["tile"], t["rotation"])])
    for letter, sq in view["stops"].items():
        if sq is not None:
            board = board.with_stop_tile(letter, square_index(sq[0], sq[1]))
    return board


def _stop_bits(board: Board, route: Sequence[str]) -> dict[int, int]:
    """Square -> the route stops passing it would serve (a stop's tile, or any empty
    square next to a stop that has no tile yet)."""
    bits: dict[int, int] = {}
    for i, letter in enumerate(route):
        tile = board.stop_tile(letter)
        squares = [tile] if tile is not None else [n for n in NEIGHBOUR[STOP_SQUARE[letter]] if n >= 0]
        for sq in squares:
            bits[sq] = bits.get(sq, 0) | 1 << i
    return bits


class _Costs:
    """Step costs on one board, each computed once per decision."""

    def __init__(self, board: Board, hand: Sequence[str]) -> None:
        self.board = board
        self.hand = set(hand)
        self.cons: dict[int, tuple[int, int]] = {}
        self.steps: dict[tuple[int, int, int], tuple[float, str] | None] = {}

    def _constraint(self, square: int) -> tuple[int, int]:
        found = self.cons.get(square)
        if found is None:
            must, forbid, _ = constraints(self.board, square)
            found = self.cons[square] = (must, forbid)
        return found

    def step(self, square: int, entry: int, exit_: int) -> tuple[float, str] | None:
        key = (square, entry, exit_)
        if key in self.steps:
            return self.steps[key]
        found = self.steps[key] = self.steps[(square, exit_, entry)] = self._cost(square, entry, exit_)
        return found

    def _cost(self, square: int, entry: int, exit_: int) -> tuple[float, str] | None:
        cell = self.board.cells[square]
        bit = SEGMENT_BIT[frozenset((entry, exit_))]
        if cell is not None:
            if cell.segments & bit:
                return DRIVE_COST, "drive"
            if cell.tree:
                return None
            must, forbid = self._constraint(square)
            for t in TILE_IDS:
                for o in upgrades(t, cell):
                    if o.segments & bit and not o.edges & forbid and o.edges & must == must:
                        return EXCHANGE_COST - (0.6 if t in self.hand else 0.0), "exchange"
            return None
        must, forbid = self._constraint(square)
        cost = FIT_COST.get((must | 1 << entry | 1 << exit_, forbid, bit))
        return None if cost is None else (cost, "lay")


def plan(board: Board, line: str, route: Sequence[str], hand: Sequence[str]) -> list[Step] | None:
    """The cheapest track for ``line`` through ``route`` (see the module docstring), or None.

    Step costs do not depend on the direction of travel, so one search (from
    the line's first terminal) finds the cheapest track either way."""
    bits = _stop_bits(board, route)
    full = (1 << len(route)) - 1
    origin, destination = line_terminals(line)
    return _search(_Costs(board, hand), origin.name, destination.name, bits, full)


_Node = tuple[int, int, int]


def _search(costs: _Costs, origin: str, destination: str, bits: dict[int, int], full: int) -> list[Step] | None:
    start = TERMINALS[origin]
    edge = terminal_edge(start)
    dist: dict[_Node, float] = {}
    parent: dict[_Node, tuple[_Node | None, tuple[int, int, int, str] | None]] = {}
    heap: list[tuple[float, _Node]] = []
    for sq in terminal_squares(start):
        node = (sq, edge, bits.get(sq, 0))
        dist[node] = 0.0
        parent[node] = (None, None)
        heap.append((0.0, node))
    heapq.heapify(heap)
    stops = set(STOP_SQUARE.values())
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist[node]:
            continue
        square, entry, mask = node
        kinds = EDGE_KIND[square]
        for e in EDGES:
            if e == entry:
                continue
            found = costs.step(square, entry, e)
            if found is None:
                continue
            cost, work = found
            kind = kinds[e]
            if kind is EdgeKind.SQUARE:
                n = NEIGHBOUR[square][e]
                if n in stops:
                    continue
                nxt = (n, e ^ 2, mask | bits.get(n, 0))
                nd = d + cost
                if nd < dist.get(nxt, 1e18):
                    dist[nxt] = nd
                    parent[nxt] = (node, (square, entry, e, work))
                    heapq.heappush(heap, (nd, nxt))
            elif kind is EdgeKind.TERMINAL and mask == full and TERMINAL_END[(square, e)].name == destination:
                steps = [Step(square, entry, e, work)]
                back: _Node | None = node
                while back is not None:
                    previous, s = parent[back]
                    if s is not None:
                        steps.append(Step(*s))
                    back = previous
                return list(reversed(steps))
    return None


def needs(steps: Iterable[Step]) -> dict[int, int]:
    """Square -> the segment mask the plan needs there, for squares still to lay or exchange."""
    out: dict[int, int] = {}
    for s in steps:
        if s.work != "drive":
            out[s.square] = out.get(s.square, 0) | SEGMENT_BIT[frozenset((s.entry, s.exit))]
    return out


def _serving(board: Board, hand: Sequence[str], need: dict[int, int], urgent: set[int]) -> list[tuple[float, Placement]]:
    """Placements from ``hand`` that lay a needed segment, best first."""
    out: list[tuple[float, Placement]] = []
    for square, segs in need.items():
        for t, found in square_candidates(board, square, hand).items():
            for p in found:
                o = ORIENTATION[(p.tile, p.rotation)]
                if o.segments & segs != segs:
                    continue
                extra = bin(o.edges).count("1") - bin(_edges(segs)).count("1")
                score = 10.0 + (3.0 if square in urgent else 0.0) - extra - _tile_cost(t)
                out.append((score, p))
    out.sort(key=lambda x: -x[0])
    return out


def _edges(segs: int) -> int:
    edges = 0
    for a, b, bit in SEGMENTS:
        if segs & bit:
            edges |= 1 << a | 1 << b
    return edges


def _harmless(p: Placement, path: set[int], useful: set[str]) -> float:
    """How little a filler placement gets in the plan's way (higher is better)."""
    sq = square_index(p.row, p.col)
    if sq in path:
        return -100.0
    row, col = p.row, p.col
    near = min((abs(row - r) + abs(col - c) for r, c in (square_of(s) for s in path)), default=6)
    return min(near, 6) - (2.0 if p.tile in useful else 0.0)


def choose_lay(
    board: Board, hand: tuple[str, ...], route: Sequence[str], steps: list[Step] | None, rng: random.Random
) -> tuple[Placement, ...]:
    """The one or two placements to lay this turn."""
    need = needs(steps or [])
    path = {s.square for s in steps or []}
    open_stops = [STOP_SQUARE[x] for x in route if board.stop_tile(x) is None]
    urgent = {sq for sq in need if any(stop in NEIGHBOUR[sq] for stop in open_stops)}
    useful = {t for t in TILE_IDS if any(square_candidates(board, sq, (t,)) for sq in need)}
    firsts = [p for _, p in _serving(board, hand, need, urgent)]
    for first in firsts[:6]:
        sq = square_index(first.row, first.col)
        laid = outcome(board, first, sq, ORIENTATION[(first.tile, first.rotation)])
        board1, hand1 = apply(board, hand, laid)
        rest = {k: v for k, v in need.items() if k != sq}
        for _, second in _serving(board1, hand1, rest, urgent)[:4]:
            if _valid(board, hand, (first, second)):
                return first, second
        seconds = seconds_after(board, hand, first)
        if seconds:
            return first, max(seconds, key=lambda p: (_harmless(p, path, useful), rng.random()))
    # nothing of the plan can be laid (or nothing pairs with it): fill in out of the way
    singles = single_placements(board, hand)
    rng.shuffle(singles)
    singles.sort(key=lambda p: -_harmless(p, path, useful))
    for first in singles[:12]:
        seconds = seconds_after(board, hand, first)
        if seconds:
            return first, max(seconds, key=lambda p: (_harmless(p, path, useful), rng.random()))
    for first in singles:
        seconds = seconds_after(board, hand, first)
        if seconds:
            return first, seconds[0]
    # two adjacent exchanges, neither legal alone, still make a pair (and then one tile is not enough)
    for first, partner in joint_firsts(board, hand):
        laid = outcome(board, first, square_index(first.row, first.col), ORIENTATION[(first.tile, first.rotation)])
        board1, hand1 = apply(board, hand, laid)
        found = exchanges_at(board1, partner, hand1)
        if found:
            return first, found[0]
    return (singles[0],) if singles else ()


def _valid(board: Board, hand: tuple[str, ...], placements: tuple[Placement, ...]) -> bool:
    try:
        check_turn(board, hand, placements)
    except IllegalAction:
        return False
    return True


def choose_draw(view: JSONDict, actions: list[JSONDict], board: Board) -> JSONDict:
    """A rider's tile the plan needs, else the pile, else the first offer."""
    me = view["me"]
    steps = plan(board, me["line"], me["route"], view["players"][me["seat"]]["hand"])
    need = needs(steps or [])
    for a in actions:
        if a.get("source") == "rider" and any(square_candidates(board, sq, (a["tile"],)) for sq in need):
            return a
    pile = [a for a in actions if a.get("source") == "pile"]
    return pile[0] if pile else actions[0]


def planner_strategy(view: JSONDict, actions: list[JSONDict], rng: random.Random) -> JSONDict:
    """The cable-car planner as a reference-bot strategy (view + legal actions -> action)."""
    kinds = {a["type"]: a for a in actions}
    if "roll" in kinds:
        return kinds["roll"]
    if "start_ride" in kinds:
        return {"type": "start_ride"}  # the server drives the shortest complete path
    board = board_from_view(view)
    if "draw_tile" in kinds:
        return choose_draw(view, [a for a in actions if a["type"] == "draw_tile"], board)
    me = view["me"]
    hand = tuple(view["players"][me["seat"]]["hand"])
    steps = plan(board, me["line"], me["route"], hand)
    placements = choose_lay(board, hand, me["route"], steps, rng)
    if not placements:
        return actions[0]
    return {"type": "lay_tiles", "placements": [{"tile": p.tile, "row": p.row, "col": p.col,
                                                  "rotation": p.rotation} for p in placements]}
