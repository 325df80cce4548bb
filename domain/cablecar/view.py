"""What each seat may see: the status, the game view, redacted events, the static board.

Secrets: a seat's line and route card are its own until it starts its ride
(or the game ends); the pile order and the die generator's key are nobody's
until the game ends.  Hands, the board, stops, trams and rolls are public.
"""

from __future__ import annotations

import dataclasses

from domain.cablecar.components import COMPONENTS
from domain.cablecar.events import GameSetUp
from domain.cablecar.geometry import STOP_LETTERS, square_of
from domain.cablecar.network import line_terminals
from domain.cablecar.ride import DIE_FACES
from domain.cablecar.scoring import result
from domain.cablecar.state import CableCarState, PlayerState, Ride, Space
from domain.cablecar.tiles import DISTINCT, Orientation
from domain.cablecar.turns import active_seats
from domain.core import JSON, STATUS_FINISHED, STATUS_PLAYING, Event
from domain.forfeits import STATUS_CANCELLED, standings_of


def status(state: CableCarState) -> str:
    """``playing`` from the start (there are no setup choices), ``finished``
    at the end, ``cancelled`` when a host cancelled it."""
    if state.end_reason == STATUS_CANCELLED:
        return STATUS_CANCELLED
    return STATUS_FINISHED if state.finished else STATUS_PLAYING


def _tile(square: int, orientation: Orientation) -> dict[str, JSON]:
    row, col = square_of(square)
    return {"row": row, "col": col, "tile": orientation.tile, "rotation": orientation.rotation}


def _space(space: Space) -> JSON:
    return space if isinstance(space, str) else list(square_of(space))


def _tram(ride: Ride) -> dict[str, JSON]:
    """The tram's square; on a terminal, the path square next to the loop."""
    spaces, position = ride.spaces, ride.position
    terminal = spaces[position] if isinstance(spaces[position], str) else None
    if terminal is None:
        square = spaces[position]
    elif position == 0:
        square = spaces[1]
    else:
        square = spaces[position - 1]
    assert isinstance(square, int)
    row, col = square_of(square)
    return {"row": row, "col": col, "space": position, "terminal": terminal}


def _ride(ride: Ride) -> dict[str, JSON]:
    return {
        "from": ride.origin,
        "to": ride.destination,
        "spaces": [_space(s) for s in ride.spaces],
        "position": ride.position,
        "length": len(ride.spaces) - 1,
    }


def _player(state: CableCarState, seat: int, p: PlayerState) -> dict[str, JSON]:
    shown = state.revealed(seat)
    return {
        "seat": seat,
        "name": p.name,
        "line": p.line if shown else None,
        "route": list(p.route) if shown else None,
        "hand": list(p.hand),
        "hand_count": len(p.hand),
        "riding": p.riding,
        "tram": _tram(p.ride) if p.ride is not None else None,
        "ride": _ride(p.ride) if p.ride is not None else None,
        "last_roll": p.last_roll,
        "standing": standings_of(state.out)[seat],
    }


def view(state: CableCarState, seat: int | None) -> dict[str, JSON]:
    """The state as ``seat`` (None: a spectator) may see it."""
    out: dict[str, JSON] = {
        "status": status(state),
        "active_seats": list(active_seats(state)),
        "turn": None if state.finished else state.turn,
        "turn_number": state.turn_number,
        "tiles": [_tile(square, o) for square, o in state.board.placed()],
        "stops": {
            letter: (None if sq is None else list(square_of(sq)))
            for letter, sq in zip(STOP_LETTERS, state.board.stop_tiles, strict=True)
        },
        "pile_count": len(state.pile),
        "players": [_player(state, i, p) for i, p in enumerate(state.players)],
    }
    if seat is not None and 0 <= seat < state.player_count:
        me = state.players[seat]
        out["me"] = {
            "seat": seat,
            "line": me.line,
            "route": list(me.route),
            "route_card": me.route_card,
            "terminals": [t.name for t in line_terminals(me.line)],
        }
    if state.finished:
        out["result"] = result(state)
    return out


def redact(state: CableCarState, event: Event, seat: int | None) -> dict[str, JSON]:
    """``event``'s payload as ``seat`` may see it now (judged against ``state``)."""
    if not isinstance(event, GameSetUp):
        return event.to_payload()

    def hidden(i: int) -> bool:
        return i != seat and not state.revealed(i)

    n = len(event.players)
    redacted = dataclasses.replace(
        event,
        lines=tuple(None if hidden(i) else event.lines[i] for i in range(n)),
        route_cards=tuple(None if hidden(i) else event.route_cards[i] for i in range(n)),
        routes=tuple(None if hidden(i) else event.routes[i] for i in range(n)),
        pile=event.pile if state.finished else None,
        rng_key=event.rng_key if state.finished else None,
    )
    return redacted.to_payload()


def board_payload() -> dict[str, JSON]:
    """Static board data for clients: grid, stops, lines, tiles, die, conventions."""
    c = COMPONENTS
    return {
        "grid": {"rows": c.rows, "cols": c.cols, "origin": "row 1 is the north edge, col 1 the west edge"},
        "edges": ["N", "E", "S", "W"],
        "rotation": c.rotation,
        "stops": [{"letter": s.letter, "name": s.name, "row": s.row, "col": s.col} for s in c.stops],
        "lines": [
            {
                "id": line.id,
                "color": line.color,
                "terminals": [
                    {"name": t.name, "edge": t.edge, "squares": [list(sq) for sq in t.squares]}
                    for t in line.terminals
                ],
            }
            for line in c.lines
        ],
        "tiles": [
            {
                "id": t.id,
                "segments": [list(seg) for seg in t.segments],
                "tree": t.tree,
                "count": t.total,
                "draw_pile": t.draw_pile,
                "start_tiles": t.start_tiles,
                "distinct_rotations": [o.rotation for o in DISTINCT[t.id]],
            }
            for t in c.tile_types
        ],
        "tile_total": c.tile_total,
        "start_hand": dict(c.start_hand),
        "hand_size": c.hand_size,
        "tiles_per_turn": c.tiles_per_turn,
        "players": {"min": c.min_players, "max": c.max_players},
        "die": list(DIE_FACES),
        "route_cards": {
            "three_stops_for_2_3_players": {
                r.id: {k: list(v) for k, v in r.stops.items()} for r in c.three_stop_cards
            },
            "two_stops_for_4_6_players": {
                r.id: {k: list(v) for k, v in r.stops.items()} for r in c.two_stop_cards
            },
        },
    }
