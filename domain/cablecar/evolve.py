"""Applying events to the state.  Never raises for a recorded event."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from domain.cablecar.board import Board
from domain.cablecar.events import (
    DieRolled,
    GameEnded,
    GameSetUp,
    RideStarted,
    TileDrawn,
    TilesDrawn,
    TilesLaid,
    TurnEnded,
    TurnPassed,
)
from domain.cablecar.geometry import square_index
from domain.cablecar.state import RULES_VERSIONS, CableCarState, PlayerState, Ride, Space
from domain.cablecar.tiles import ORIENTATION
from domain.clocks import parse_time_control
from domain.core import JSON, Event, rules_generation
from domain.forfeits import STATUS_CANCELLED as REASON_CANCELLED
from domain.forfeits import GameCancelled, SeatResigned, SeatTimedOut, marked_out
from domain.rng import Rng
from domain.turnends import carries_turn_end


def _setup(event: GameSetUp) -> CableCarState:
    assert event.pile is not None and event.rng_key is not None, "evolve needs the unredacted setup"
    players = tuple(
        PlayerState(
            name=name,
            line=str(event.lines[i]),
            route_card=str(event.route_cards[i]),
            route=tuple(event.routes[i] or ()),
            hand=tuple(event.hands[i]),
        )
        for i, name in enumerate(event.players)
    )
    rules = rules_generation(RULES_VERSIONS, event.rules_version)
    return CableCarState(
        players=players,
        start_seat=event.start_seat,
        # cable-car/1 had the first placement rules; every later version has the second
        board=Board.empty(min(rules, 2)),
        pile=tuple(event.pile),
        rng=Rng(event.rng_key, event.rng_counter),
        turn=event.start_seat,
        out=(None,) * len(event.players),
        time_control=parse_time_control(event.time_control),
        rules=rules,
    )


def _remove(hand: tuple[str, ...], tile: str) -> tuple[str, ...]:
    i = hand.index(tile)
    return hand[:i] + hand[i + 1 :]


def _laid(state: CableCarState, event: TilesLaid) -> CableCarState:
    board = state.board
    hand = state.players[event.seat].hand
    for p in event.placements:
        square = square_index(p["row"], p["col"])
        board = board.with_tile(square, ORIENTATION[(p["tile"], p["rotation"])])
        for letter in p["stops"]:
            board = board.with_stop_tile(letter, square)
        hand = _remove(hand, p["tile"])
        replaced: Mapping[str, JSON] | None = p["replaced"]
        if replaced is not None:
            hand += (replaced["tile"],)
    player = dataclasses.replace(state.players[event.seat], hand=hand)
    return dataclasses.replace(state.with_player(event.seat, player), board=board, passes=0, drawing=True)


def _drawn(state: CableCarState, event: TilesDrawn) -> CableCarState:
    state = dataclasses.replace(state, pile=state.pile[len(event.tiles) :])
    gained = tuple(event.tiles)
    for rider, tile in event.from_riders:
        giver = state.players[rider]
        state = state.with_player(rider, dataclasses.replace(giver, hand=_remove(giver.hand, tile)))
        gained += (tile,)
    player = state.players[event.seat]
    return state.with_player(event.seat, dataclasses.replace(player, hand=player.hand + gained))


def _chosen(state: CableCarState, event: TileDrawn) -> CableCarState:
    if event.rider is None:
        state = dataclasses.replace(state, pile=state.pile[1:])
    else:
        giver = state.players[event.rider]
        state = state.with_player(event.rider, dataclasses.replace(giver, hand=_remove(giver.hand, event.tile)))
    player = state.players[event.seat]
    return state.with_player(event.seat, dataclasses.replace(player, hand=player.hand + (event.tile,)))


def _space(raw: JSON) -> Space:
    return raw if isinstance(raw, str) else square_index(raw[0], raw[1])


def _ride(state: CableCarState, event: RideStarted) -> CableCarState:
    ride = Ride(event.origin, event.destination, tuple(_space(s) for s in event.spaces))
    player = dataclasses.replace(state.players[event.seat], ride=ride)
    return dataclasses.replace(state.with_player(event.seat, player), passes=0)


def _rolled(state: CableCarState, event: DieRolled) -> CableCarState:
    player = state.players[event.seat]
    assert player.ride is not None
    ride = dataclasses.replace(player.ride, position=event.end)
    player = dataclasses.replace(player, ride=ride, last_roll=event.face)
    rng = Rng(state.rng.key, event.rng_counter)
    return dataclasses.replace(state.with_player(event.seat, player), rng=rng, passes=0)


def evolve(state: CableCarState | None, event: Event) -> CableCarState:
    """Apply one event (``state`` is None before the setup event)."""
    state = _apply(state, event)
    if carries_turn_end(event):  # then exactly what turn_ended does, to the seat it would name
        state = _turn_ended(state, state.next_seat(state.turn))
    return state


def _turn_ended(state: CableCarState, next_seat: int) -> CableCarState:
    return dataclasses.replace(state, turn=next_seat, turn_number=state.turn_number + 1, drawing=False)


def _apply(state: CableCarState | None, event: Event) -> CableCarState:
    if state is None:
        if not isinstance(event, GameSetUp):
            raise ValueError(f"the first event must be {GameSetUp.TYPE}, not {event.TYPE}")
        return _setup(event)
    if isinstance(event, TilesLaid):
        return _laid(state, event)
    if isinstance(event, TilesDrawn):
        return _drawn(state, event)
    if isinstance(event, TileDrawn):
        return _chosen(state, event)
    if isinstance(event, TurnPassed):
        return dataclasses.replace(state, passes=state.passes + 1)
    if isinstance(event, TurnEnded):
        return _turn_ended(state, event.next_seat)
    if isinstance(event, RideStarted):
        return _ride(state, event)
    if isinstance(event, DieRolled):
        return _rolled(state, event)
    if isinstance(event, GameEnded):
        return dataclasses.replace(
            state, finished=True, winners=tuple(event.winners), end_reason=event.reason
        )
    if isinstance(event, SeatResigned | SeatTimedOut):
        # the passes in a row start again: a stall is every seat *still in* passing in
        # a row, and passes made before by a seat now out must not count towards it
        return dataclasses.replace(state, out=marked_out(state.out, event.seat, event), passes=0)
    if isinstance(event, GameCancelled):
        return dataclasses.replace(state, finished=True, end_reason=REASON_CANCELLED)
    raise ValueError(f"unknown event {event.TYPE!r}")
