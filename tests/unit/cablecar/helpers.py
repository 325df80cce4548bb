"""Helpers for cable-car scenario tests: real set-ups and crafted boards and states."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence

from domain.cablecar import GAME
from domain.cablecar.actions import LayTiles, Placement, Roll, StartRide
from domain.cablecar.board import Board
from domain.cablecar.candidates import joint_firsts, legal_placements
from domain.cablecar.geometry import edge_of, square_index
from domain.cablecar.network import best_path
from domain.cablecar.ride import DIE_FACES
from domain.cablecar.state import CableCarState, PlayerState
from domain.cablecar.tiles import ORIENTATION
from domain.core import Action, Event, GameConfig, replay
from domain.rng import Rng

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo")
KEY = "00" * 32

Square = tuple[int, int]
#: a tile on a crafted board: (tile id, rotation)
Tile = tuple[str, int]


def config(players: int = 2, seed: str = "test-seed", start_seat: int = 0) -> GameConfig:
    """A game configuration with ``players`` named seats."""
    return GameConfig(players=NAMES[:players], seed=seed, start_seat=start_seat)


def new_game(players: int = 2, seed: str = "test-seed", start_seat: int = 0) -> tuple[list[Event], CableCarState]:
    """The setup events of a real game and the state they lead to."""
    events = GAME.setup(config(players, seed, start_seat))
    return events, replay(GAME, events)


def act(state: CableCarState, seat: int, action: Action) -> tuple[list[Event], CableCarState]:
    """Decide ``action`` and apply its events."""
    events = GAME.decide(state, seat, action)
    return events, replay(GAME, events, state)


def types(events: Iterable[Event]) -> list[str]:
    """The type names of ``events``; an event that also ends the turn is
    ``<type>+turn_ended`` (``cable-car/3`` records the turn's end in it)."""
    return [f"{e.TYPE}+turn_ended" if getattr(e, "ends_turn", False) else e.TYPE for e in events]


def board_of(tiles: Mapping[Square, Tile], stops: Mapping[str, Square] | None = None) -> Board:
    """A board with ``tiles`` on their squares and the given stop tiles."""
    board = Board.empty()
    for (row, col), (tile, rotation) in tiles.items():
        board = board.with_tile(square_index(row, col), ORIENTATION[(tile, rotation)])
    for letter, (row, col) in (stops or {}).items():
        board = board.with_stop_tile(letter, square_index(row, col))
    return board


def state_of(
    board: Board | None = None,
    hands: Sequence[Sequence[str]] = (("straight",) * 5, ("straight",) * 5),
    lines: Sequence[str] = ("1", "2", "3", "4", "5", "6"),
    routes: Sequence[Sequence[str]] | None = None,
    pile: Sequence[str] = ("curve",) * 20,
    turn: int = 0,
) -> CableCarState:
    """A crafted state: ``len(hands)`` seats on ``board`` (tile totals are not kept)."""
    players = tuple(
        PlayerState(
            name=NAMES[i],
            line=lines[i],
            route_card="T",
            route=tuple(routes[i]) if routes is not None else (),
            hand=tuple(hand),
        )
        for i, hand in enumerate(hands)
    )
    return CableCarState(
        players=players,
        start_seat=0,
        board=board if board is not None else Board.empty(),
        pile=tuple(pile),
        rng=Rng(KEY, 0),
        turn=turn,
    )


def with_next_face(state: CableCarState, face: str) -> CableCarState:
    """``state`` with the die generator positioned so that the next roll is ``face``."""
    for counter in range(1000):
        rng = Rng(KEY, counter)
        if rng.choice(DIE_FACES)[0] == face:
            return dataclasses.replace(state, rng=rng)
    raise AssertionError(f"no counter gives face {face}")


def place(tile: str, row: int, col: int, rotation: int = 0) -> Placement:
    """A placement (shorter to write in tests)."""
    return Placement(tile, row, col, rotation)


def lay(*placements: Placement) -> LayTiles:
    """A lay_tiles action."""
    return LayTiles(tuple(placements))


_CURVE_ROTATION = {frozenset("NE"): 0, frozenset("ES"): 1, frozenset("SW"): 2, frozenset("WN"): 3}


def track_tile(a: str, b: str) -> Tile:
    """The straight or curve joining edges ``a`` and ``b`` (letters N/E/S/W)."""
    if (edge_of(a) - edge_of(b)) % 2 == 0:
        return ("straight", 0 if {a, b} == {"N", "S"} else 1)
    return ("curve", _CURVE_ROTATION[frozenset(a + b)])


def track(steps: Iterable[tuple[int, int, str]]) -> dict[Square, Tile]:
    """Tiles for a track given as ``(row, col, "WE")`` steps (entry edge, exit edge)."""
    return {(row, col): track_tile(edges[0], edges[1]) for row, col, edges in steps}


def row_track(row: int, cols: Iterable[int], edges: str = "WE") -> list[tuple[int, int, str]]:
    """Steps along a row, all with the same edges."""
    return [(row, col, edges) for col in cols]


def col_track(col: int, rows: Iterable[int], edges: str = "NS") -> list[tuple[int, int, str]]:
    """Steps along a column, all with the same edges."""
    return [(row, col, edges) for row in rows]


def presidio_route_board() -> dict[Square, Tile]:
    """A complete line-3 network (Presidio to Mission Bay) that drives over the
    Ferry Building terminal loop of line 1:

    Presidio -> (3,1) ... (3,12) -> Ferry Building loop -> (2,12) (2,11)
    (2,10) -> (3,10) crossing -> (4,10) ... (9,10) -> (10,10) (10,11) (10,12)
    -> Mission Bay.  27 pips long.
    """
    steps = (
        row_track(3, range(1, 10))
        + [(3, 11, "WE"), (3, 12, "WE"), (2, 12, "EW"), (2, 11, "EW"), (2, 10, "ES")]
        + col_track(10, range(4, 10))
        + [(10, 10, "NE"), (10, 11, "WE"), (10, 12, "WE")]
    )
    tiles = track(steps)
    tiles[(3, 10)] = ("tree_crossing", 0)
    return tiles


def random_action(state: CableCarState, rnd: random.Random) -> Action:
    """A uniformly random-ish legal action for the seat to play (rides when it can)."""
    seat = state.turn
    player = state.players[seat]
    if state.drawing:
        return rnd.choice(GAME.legal_actions(state, seat))
    if player.riding:
        return Roll()
    if best_path(state.board, player.line, player.route) is not None:
        return StartRide()
    firsts = legal_placements(state, seat)
    rnd.shuffle(firsts)
    for first in firsts:
        seconds = legal_placements(state, seat, first)
        if seconds:
            return LayTiles((first, rnd.choice(seconds)))
    for first, _partner in joint_firsts(state.board, player.hand):
        seconds = legal_placements(state, seat, first)
        if seconds:
            return LayTiles((first, rnd.choice(seconds)))
    return LayTiles((firsts[0],))


def play_from(
    state: CableCarState, rnd: random.Random, max_turns: int = 400
) -> tuple[list[Event], list[CableCarState]]:
    """Random legal moves from ``state``: the events and the state after each move."""
    events: list[Event] = []
    states = [state]
    while not state.finished and len(states) <= max_turns:
        new, state = act(state, state.turn, random_action(state, rnd))
        events += new
        states.append(state)
    return events, states


def play_random(
    players: int, seed: str, rnd: random.Random, max_turns: int = 400
) -> tuple[list[Event], list[CableCarState]]:
    """A random legal game: all its events and the state after each move."""
    events, state = new_game(players, seed)
    more, states = play_from(state, rnd, max_turns)
    return events + more, states


PRESIDIO_STOPS = {"F": (3, 4), "M": (3, 6), "H": (4, 10), "I": (6, 10)}


def ride_ready(players: int, seed: str) -> CableCarState:
    """A real game whose board holds :func:`presidio_route_board` (tiles taken from the
    pile, then from other hands) and whose start seat has line 3, route H M: it can ride."""
    _, state = new_game(players, seed)
    tiles = presidio_route_board()
    pile = list(state.pile)
    hands = [list(p.hand) for p in state.players]
    for tile, _ in tiles.values():
        if tile in pile:
            pile.remove(tile)
        else:
            giver = next(h for h in hands[1:] if tile in h)
            giver.remove(tile)
    lines = [p.line for p in state.players]
    if "3" in lines:
        lines[lines.index("3")] = lines[state.turn]
    lines[state.turn] = "3"
    players_state = tuple(
        dataclasses.replace(
            p,
            line=lines[i],
            hand=tuple(hands[i]),
            route=("H", "M") if i == state.turn else p.route,
        )
        for i, p in enumerate(state.players)
    )
    return dataclasses.replace(
        state, players=players_state, pile=tuple(pile), board=board_of(tiles, PRESIDIO_STOPS)
    )
