"""Driving on the track: route completeness, the shortest ride path, path checking.

How a tram drives
-----------------
A tram enters a square through one edge and leaves through another edge
joined to it by a segment of the tile: it never reverses and never turns
inside a tile except along a segment (so a route joined only by a sharp turn
is not a route).  Leaving through an edge it

* enters the neighbouring square through the facing edge, or
* drives into a terminal loop: into its own *destination* terminal the ride
  ends; over *another line's* terminal loop it comes out of the loop's other
  square (through the same board edge); its own *origin* terminal cannot be
  entered again.

The spaces of a ride
--------------------
A ride path is a tuple of spaces: the origin terminal's name, then every
square driven through in order (as a square index), with the name of each
other line's terminal loop driven over between its two squares, then the
destination terminal's name.  Each space is one pip of the die: a loop driven
over counts as one space, like the squares.  A path may pass a square more
than once (for instance through a crossing), each pass being a space.

A path is *complete* for a line and route card when it starts at one of the
line's terminals, ends at the other, and passes every stop tile of the
route's stops (in any order).  A stop without a tile yet cannot be passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.cablecar.actions import PathStep
from domain.cablecar.board import Board
from domain.cablecar.components import COMPONENTS, Terminal
from domain.cablecar.geometry import (
    EDGE_KIND,
    EDGES,
    NEIGHBOUR,
    SEGMENT_BIT,
    TERMINAL_END,
    TERMINALS,
    EdgeKind,
    on_board,
    square_index,
    square_of,
    terminal_edge,
    terminal_squares,
)
from domain.cablecar.state import Space
from domain.errors import IllegalAction


def _exit_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    table = []
    for mask in range(64):
        row = []
        for entry in EDGES:
            row.append(tuple(e for e in EDGES if e != entry and mask & SEGMENT_BIT[frozenset((entry, e))]))
        table.append(tuple(row))
    return tuple(table)


#: EXITS[segment mask][entry edge]: the edges a tram entering there can leave by
EXITS = _exit_table()

#: a search node: (square, entry edge, bitmask of the route stops passed)
_Node = tuple[int, int, int]

#: one step of path checking: entry edge -> (spaces so far, previous entry edge, loop driven over)
_Layer = dict[int, tuple[int, int | None, str | None]]


@dataclass(frozen=True, slots=True)
class RidePath:
    """A complete, drivable path (see the module docstring for ``spaces``)."""

    origin: str
    destination: str
    spaces: tuple[Space, ...]

    @property
    def length(self) -> int:
        """The number of pips from the origin to the destination."""
        return len(self.spaces) - 1

    def squares(self) -> tuple[int, ...]:
        """The squares driven through, in order."""
        return tuple(s for s in self.spaces if isinstance(s, int))


def line_terminals(line_id: str) -> tuple[Terminal, Terminal]:
    """The two terminals of a line."""
    return COMPONENTS.line(line_id).terminals


def _other(line_id: str, origin: Terminal) -> Terminal:
    a, b = line_terminals(line_id)
    if origin.name not in (a.name, b.name):
        raise ValueError(f"{origin.name} is not a terminal of line {line_id}")
    return b if origin.name == a.name else a


def _stop_bits(board: Board, route: Sequence[str]) -> dict[int, int] | None:
    """Square -> bitmask of the route stops whose tile it is; None if a stop has no tile."""
    bits: dict[int, int] = {}
    for i, letter in enumerate(route):
        square = board.stop_tile(letter)
        if square is None:
            return None
        bits[square] = bits.get(square, 0) | 1 << i
    return bits


def shortest_path(board: Board, line_id: str, route: Sequence[str], origin: str) -> RidePath | None:
    """The shortest complete path from terminal ``origin`` of ``line_id``, or None.

    Breadth-first over (square, entry edge, stops passed) with a bucket queue
    (a loop driven over costs two spaces: the loop and the square after it);
    ties go to the first found, scanning edges N, E, S, W.
    """
    start = TERMINALS[origin]
    destination = _other(line_id, start)
    bits = _stop_bits(board, route)
    if bits is None:
        return None
    full = (1 << len(route)) - 1
    own = {t.name for t in line_terminals(line_id)}
    parent: dict[_Node, tuple[_Node | None, str | None]] = {}
    best: dict[_Node, int] = {}
    buckets: list[list[_Node]] = [[], _first_nodes(board, start, bits)]
    for node in buckets[1]:
        parent[node] = (None, None)
        best[node] = 1
    distance = 1
    while distance < len(buckets):
        for node in buckets[distance]:
            if best[node] != distance:
                continue  # stale: reached more cheaply since it was queued
            square, entry, mask = node
            cell = board.cells[square]
            assert cell is not None
            for e in EXITS[cell.segments][entry]:
                kind = EDGE_KIND[square][e]
                if kind is EdgeKind.SQUARE:
                    n = NEIGHBOUR[square][e]
                    if board.cells[n] is None:
                        continue
                    nxt, cost, loop = (n, e ^ 2, mask | bits.get(n, 0)), 1, None
                elif kind is EdgeKind.TERMINAL:
                    terminal = TERMINAL_END[(square, e)]
                    if terminal.name == destination.name:
                        if mask == full:
                            return _rebuild(parent, node, start, destination)
                        continue
                    n = _past_loop(board, square, terminal, own)
                    if n < 0:
                        continue
                    nxt, cost, loop = (n, e, mask | bits.get(n, 0)), 2, terminal.name
                else:
                    continue
                if nxt in best and best[nxt] <= distance + cost:
                    continue
                best[nxt] = distance + cost
                parent[nxt] = (node, loop)
                while len(buckets) <= distance + cost:
                    buckets.append([])
                buckets[distance + cost].append(nxt)
        distance += 1
    return None


def _first_nodes(board: Board, start: Terminal, bits: dict[int, int]) -> list[_Node]:
    """The search nodes a tram leaving terminal ``start`` can enter: the
    terminal's squares whose tile has track on the terminal's edge."""
    edge = terminal_edge(start)
    nodes: list[_Node] = []
    for square in terminal_squares(start):
        cell = board.cells[square]
        node = (square, edge, bits.get(square, 0))
        if cell is not None and cell.edges >> edge & 1 and node not in nodes:
            nodes.append(node)
    return nodes


def _past_loop(board: Board, square: int, terminal: Terminal, own: set[str]) -> int:
    """The square a tram comes out on after driving from ``square`` over the
    loop of ``terminal``, or -1: the loop is one of its own line's
    terminals, or that square has no tile."""
    if terminal.name in own:
        return -1
    a, b = terminal_squares(terminal)
    n = b if square == a else a
    return -1 if board.cells[n] is None else n


def _rebuild(
    parent: dict[_Node, tuple[_Node | None, str | None]],
    last: _Node,
    origin: Terminal,
    destination: Terminal,
) -> RidePath:
    spaces: list[Space] = [destination.name]
    node: _Node | None = last
    while node is not None:
        spaces.append(node[0])
        previous, loop = parent[node]
        if loop is not None:
            spaces.append(loop)
        node = previous
    spaces.append(origin.name)
    return RidePath(origin.name, destination.name, tuple(reversed(spaces)))


def best_path(board: Board, line_id: str, route: Sequence[str], origin: str | None = None) -> RidePath | None:
    """The shortest complete path of a line (from ``origin``, or from either terminal).

    Without ``origin`` the shorter of the two directions wins; a tie goes to
    the line's first terminal.
    """
    names = [origin] if origin is not None else [t.name for t in line_terminals(line_id)]
    best: RidePath | None = None
    for name in names:
        path = shortest_path(board, line_id, route, name)
        if path is not None and (best is None or path.length < best.length):
            best = path
    return best


def _bad(detail: str) -> IllegalAction:
    return IllegalAction("bad_path", detail)


def _squares_and_loops(steps: Sequence[PathStep]) -> tuple[list[int], list[str | None]]:
    """Split requested steps into squares and the loop named before each square."""
    squares: list[int] = []
    loops: list[str | None] = []
    pending: str | None = None
    for step in steps:
        if isinstance(step, str):
            if step not in TERMINALS:
                raise _bad(f"{step!r} is not a terminal")
            if not squares or pending is not None:
                raise _bad(f"terminal loop {step!r} must stand between two squares")
            pending = step
            continue
        row, col = step
        if not on_board(row, col):
            raise _bad(f"({row}, {col}) is not on the board")
        squares.append(square_index(row, col))
        loops.append(pending)
        pending = None
    if pending is not None or not squares:
        raise _bad("a path must start and end with a square")
    return squares, loops


def trace_path(
    board: Board, line_id: str, route: Sequence[str], origin: str, steps: Sequence[PathStep]
) -> RidePath:
    """Check a requested path and return it as ride spaces; raises IllegalAction ``bad_path``.

    Consecutive squares are joined directly or, when they are the two squares
    of another line's terminal loop, over the loop; where both readings are
    possible the one with fewer spaces wins unless the loop is named.
    """
    start = TERMINALS[origin]
    destination = _other(line_id, start)
    own = {t.name for t in line_terminals(line_id)}
    squares, loops = _squares_and_loops(steps)
    layers: list[_Layer] = [{_check_start(board, squares, start): (1, None, None)}]
    for i in range(1, len(squares)):
        layers.append(_next_layer(board, squares[i - 1], squares[i], loops[i], own, layers[-1]))
    entry = _final_entry(board, squares[-1], destination, layers[-1])
    path = _unwind(squares, layers, entry, start, destination)
    passed = set(path.squares())
    for letter in route:
        if board.stop_tile(letter) not in passed:
            raise _bad(f"the path does not pass the tile of stop {letter}")
    return path


def _check_start(board: Board, squares: Sequence[int], start: Terminal) -> int:
    """Check that every square has a tile and the first has track from
    terminal ``start``; the edge the tram enters the first square by."""
    for square in squares:
        if board.cells[square] is None:
            row, col = square_of(square)
            raise _bad(f"there is no tile on ({row}, {col})")
    if squares[0] not in terminal_squares(start):
        raise _bad(f"the path must start on a square next to terminal {start.name}")
    edge = terminal_edge(start)
    first_cell = board.cells[squares[0]]
    assert first_cell is not None
    if not first_cell.edges >> edge & 1:
        row, col = square_of(squares[0])
        raise _bad(f"the tile on ({row}, {col}) has no track from terminal {start.name}")
    return edge


def _next_layer(board: Board, a: int, b: int, named: str | None, own: set[str], layer_a: _Layer) -> _Layer:
    """The ways to enter square ``b`` from square ``a`` (entered as ``layer_a``
    says), directly or over another line's loop (``named``, if the request
    names one), each entry edge kept at its fewest spaces."""
    cell = board.cells[a]
    assert cell is not None
    layer: _Layer = {}
    for entry, (cost, _, _) in layer_a.items():
        for e in EXITS[cell.segments][entry]:
            options: list[tuple[int, int, str | None]] = []
            if named is None and NEIGHBOUR[a][e] == b:
                options.append((e ^ 2, cost + 1, None))
            if EDGE_KIND[a][e] is EdgeKind.TERMINAL:
                terminal = TERMINAL_END[(a, e)]
                if terminal.name not in own and b in terminal_squares(terminal) and named in (None, terminal.name):
                    options.append((e, cost + 2, terminal.name))
            for b_entry, b_cost, loop in options:
                if b_entry not in layer or b_cost < layer[b_entry][0]:
                    layer[b_entry] = (b_cost, entry, loop)
    if not layer:
        (ra, ca), (rb, cb) = square_of(a), square_of(b)
        raise _bad(f"a tram cannot drive on from ({ra}, {ca}) to ({rb}, {cb})")
    return layer


def _final_entry(board: Board, last: int, destination: Terminal, layer: _Layer) -> int:
    """The cheapest edge of entering the last square from which the tram
    drives into terminal ``destination``."""
    last_cell = board.cells[last]
    assert last_cell is not None
    end_edge = terminal_edge(destination)
    finals = [
        (cost, entry)
        for entry, (cost, _, _) in layer.items()
        if last in terminal_squares(destination) and end_edge in EXITS[last_cell.segments][entry]
    ]
    if not finals:
        raise _bad(f"the path must end by driving into terminal {destination.name}")
    return min(finals)[1]


def _unwind(
    squares: Sequence[int], layers: Sequence[_Layer], entry: int, start: Terminal, destination: Terminal
) -> RidePath:
    """The ride path, followed back from the last square's ``entry`` edge."""
    spaces: list[Space] = [destination.name]
    for i in range(len(squares) - 1, -1, -1):
        spaces.append(squares[i])
        _, previous, loop = layers[i][entry]
        if loop is not None:
            spaces.append(loop)
        if previous is not None:
            entry = previous
    spaces.append(start.name)
    return RidePath(start.name, destination.name, tuple(reversed(spaces)))
