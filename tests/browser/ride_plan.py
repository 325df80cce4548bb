"""A cable-car game brought to the point where seat 0 may start its ride.

Random play takes far too long to complete a network, so this plans one with the
rules core: it picks a track for seat 0's line through squares next to its
route's stops, then plays both seats (both lay seat 0's track whenever their
hands allow, and put other tiles far from it).  Every move is decided by the
rules (``GAME.decide``), so the same moves sent to the server are legal there
too: a game created with the same names and seed deals the same tiles.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from itertools import permutations
from typing import Any

from domain.cablecar import GAME
from domain.cablecar.actions import LayTiles, Placement
from domain.cablecar.candidates import legal_placements
from domain.cablecar.components import COMPONENTS, Terminal
from domain.cablecar.geometry import square_of
from domain.cablecar.network import best_path, line_terminals
from domain.cablecar.state import CableCarState
from domain.core import GameConfig, replay
from domain.errors import DomainError

Square = tuple[int, int]
DELTA = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CURVE_ROTATION = {frozenset("NE"): 0, frozenset("ES"): 1, frozenset("SW"): 2, frozenset("WN"): 3}
STOPS = {s.letter: (s.row, s.col) for s in COMPONENTS.stops}
STOP_SQUARES = set(STOPS.values())
TERMINAL_SQUARES = {sq for t in COMPONENTS.terminals() for sq in t.squares}


def _neighbours(sq: Square) -> Iterator[tuple[str, Square]]:
    for edge, (dr, dc) in DELTA.items():
        row, col = sq[0] + dr, sq[1] + dc
        if 1 <= row <= COMPONENTS.rows and 1 <= col <= COMPONENTS.cols:
            yield edge, (row, col)


def _leg(start: Square, goals: set[Square], blocked: set[Square]) -> list[Square] | None:
    """The shortest chain of free squares from ``start`` to one of ``goals``."""
    came: dict[Square, Square | None] = {start: None}
    todo = deque([start])
    while todo:
        sq = todo.popleft()
        if sq in goals:
            out = [sq]
            while (prev := came[out[-1]]) is not None:
                out.append(prev)
            return out[::-1]
        for _, nxt in _neighbours(sq):
            if nxt not in came and nxt not in blocked:
                came[nxt] = sq
                todo.append(nxt)
    return None


def _chain(start: Terminal, end: Terminal, route: Sequence[str]) -> list[Square] | None:
    """The shortest simple chain of squares from a square of ``start`` to one of ``end``
    that passes a square next to every stop of ``route``."""
    best: list[Square] | None = None
    for order in permutations(route):
        for first in start.squares:
            chain = [first]
            blocked = STOP_SQUARES | (TERMINAL_SQUARES - {first, *end.squares})
            for letter in order:
                stop = STOPS[letter]
                goals = {n for _, n in _neighbours(stop)} - blocked
                leg = _leg(chain[-1], goals, blocked | set(chain[:-1]))
                if leg is None:
                    break
                chain += leg[1:]
            else:
                leg = _leg(chain[-1], set(end.squares), blocked | set(chain[:-1]))
                if leg is not None:
                    chain += leg[1:]
                    if best is None or len(chain) < len(best):
                        best = chain
    return best


def _tile(a: str, b: str) -> tuple[str, int]:
    """The straight or curve (in its lowest rotation) joining edges ``a`` and ``b``."""
    if {a, b} == {"N", "S"}:
        return "straight", 0
    if {a, b} == {"E", "W"}:
        return "straight", 1
    return "curve", CURVE_ROTATION[frozenset(a + b)]


def target_track(line: str, route: Sequence[str]) -> dict[Square, tuple[str, int]] | None:
    """Straights and curves for a complete network of ``line`` through ``route``."""
    a, b = line_terminals(line)
    chain = _chain(a, b, route)
    if chain is None:
        return None
    edges: list[str] = [a.edge]
    for here, there in zip(chain, chain[1:], strict=False):
        edges.append(next(e for e, n in _neighbours(here) if n == there))
    edges.append(b.edge)
    # square i is entered through the edge opposite the previous step and left through the next
    return {sq: _tile(OPPOSITE[edges[i]] if i else edges[0], edges[i + 1]) for i, sq in enumerate(chain)}


def _far(sq: Square, track: dict[Square, tuple[str, int]], route: Sequence[str]) -> bool:
    """Whether a tile on ``sq`` keeps clear of the planned track and the route's stops."""
    near_stop = any(abs(sq[0] - STOPS[s][0]) + abs(sq[1] - STOPS[s][1]) <= 1 for s in route)
    near_track = any(max(abs(sq[0] - t[0]), abs(sq[1] - t[1])) <= 1 for t in track)
    return not near_stop and not near_track and sq not in TERMINAL_SQUARES


def _choose(
    state: CableCarState, seat: int, track: dict[Square, tuple[str, int]], route: Sequence[str]
) -> LayTiles | None:
    """Two tiles for ``seat``: planned track first, else tiles laid out of the way."""
    laid = set(_laid(state))
    hand = state.players[seat].hand
    wanted = [
        Placement(t, r, c, rot) for (r, c), (t, rot) in track.items() if (r, c) not in laid and t in hand
    ]
    firsts = wanted + [p for p in legal_placements(state, seat) if _far((p.row, p.col), track, route)]
    for first in firsts:
        seconds = legal_placements(state, seat, first)
        ranked = [p for p in seconds if p in wanted and p != first]
        ranked += [p for p in seconds if _far((p.row, p.col), track, route)]
        for second in ranked:
            action = LayTiles((first, second))
            try:
                GAME.decide(state, seat, action)
            except DomainError:
                continue
            return action
    return None


def _laid(state: CableCarState) -> Iterator[Square]:
    for square, _ in state.board.placed():
        yield square_of(square)


def plan_ride(
    names: Sequence[str], seed: str, max_turns: int = 120
) -> list[tuple[int, dict[str, Any]]] | None:
    """The (seat, action body) moves after which seat 0 may start its ride, or None."""
    state = replay(GAME, GAME.setup(GameConfig(players=tuple(names), seed=seed, start_seat=0)))
    rider = state.players[0]
    track = target_track(rider.line, rider.route)
    if track is None:
        return None
    moves: list[tuple[int, dict[str, Any]]] = []
    for _ in range(max_turns):
        seat = state.turn
        if seat == 0 and best_path(state.board, rider.line, rider.route) is not None:
            return moves
        action = _choose(state, seat, track, rider.route)
        if action is None:
            return None
        state = replay(GAME, GAME.decide(state, seat, action), state)
        moves.append((seat, action.to_body()))
    return None
