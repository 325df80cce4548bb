"""Turn order rulings: laying one tile, passing, stalling, drawing when the pile is empty."""

from __future__ import annotations

import dataclasses

from domain.cablecar import GAME
from domain.cablecar.actions import LayTiles
from domain.cablecar.events import GameEnded, TilesDrawn, TilesLaid, TurnEnded, TurnPassed
from domain.cablecar.state import CableCarState, Ride
from domain.cablecar.turns import can_act
from tests.unit.cablecar.helpers import act, board_of, lay, place, presidio_route_board, state_of

PAIR = lay(place("straight", 6, 6, 0), place("straight", 8, 8, 0))


def with_rider(state: CableCarState, seat: int) -> CableCarState:
    ride = Ride("Presidio", "Mission Bay", ("Presidio", 24, "Mission Bay"))
    return state.with_player(seat, dataclasses.replace(state.players[seat], ride=ride))


def test_a_player_who_cannot_lay_two_lays_one() -> None:
    state = state_of(hands=(("curve",), ("straight",)), pile=())
    actions = GAME.legal_actions(state, 0)
    assert actions and all(isinstance(a, LayTiles) and len(a.placements) == 1 for a in actions)
    events, after = act(state, 0, lay(place("curve", 6, 6, 0)))
    assert [type(e) for e in events] == [TilesLaid, TurnEnded]
    assert after.players[0].hand == () and after.turn == 1


def test_a_player_who_cannot_lay_passes() -> None:
    state = state_of(hands=(("straight", "straight", "curve"), ()), pile=())
    assert not can_act(state, 1)
    events, after = act(state, 0, PAIR)
    assert events[1:] == [TurnEnded(0, 1), TurnPassed(1, "no_legal_placement"), TurnEnded(1, 0)]
    assert after.turn == 0 and after.passes == 1 and GAME.status(after) == "playing"


def test_a_player_with_a_complete_network_is_not_passed() -> None:
    board = board_of(presidio_route_board(), {"H": (4, 10), "M": (3, 6)})
    state = state_of(
        board, hands=(("straight", "straight"), ()), lines=("1", "3"), routes=((), ("H", "M")), pile=()
    )
    assert can_act(state, 1)
    events, after = act(state, 0, lay(place("straight", 6, 6, 0), place("straight", 8, 8, 0)))
    assert events[-1] == TurnEnded(0, 1) and after.turn == 1


def test_when_every_seat_passes_in_a_row_the_game_ends_without_a_winner() -> None:
    state = state_of(hands=(("curve",), ()), pile=())
    events, after = act(state, 0, lay(place("curve", 6, 6, 0)))
    assert events[1:] == [
        TurnEnded(0, 1),
        TurnPassed(1, "no_legal_placement"),
        TurnEnded(1, 0),
        TurnPassed(0, "no_legal_placement"),
        GameEnded((), "stalled"),
    ]
    assert GAME.status(after) == "finished" and GAME.result(after) == {
        "winners": [], "reason": "stalled", "players": [{"seat": s, "standing": "in"} for s in range(2)]}


def test_riders_never_pass() -> None:
    state = with_rider(state_of(hands=(("straight", "straight"), ()), pile=()), 1)
    events, _ = act(state, 0, PAIR)
    assert events[-1] == TurnEnded(0, 1)


def test_with_an_empty_pile_players_play_on_with_what_they_hold() -> None:
    state = state_of(hands=(("straight",) * 5, ("curve",) * 5), pile=("double_curve",))
    events, after = act(state, 0, PAIR)
    assert events[1] == TilesDrawn(0, ("double_curve",), ())
    assert len(after.players[0].hand) == 4 and after.pile == ()
    events, after = act(after, 1, lay(place("curve", 10, 10, 0), place("curve", 2, 2, 1)))
    assert [type(e) for e in events] == [TilesLaid, TurnEnded]
    assert len(after.players[1].hand) == 3


def test_once_the_pile_is_empty_tiles_are_drawn_from_riders_hands() -> None:
    hands = (("straight",) * 5, ("curve", "curve"), ("tree_wye", "switch_left", "curve"))
    state = with_rider(with_rider(state_of(hands=hands, pile=("double_curve",)), 1), 2)
    events, after = act(state, 0, PAIR)
    # one from the pile, then clockwise from the drawer: seat 1's front tile
    assert events[1] == TilesDrawn(0, ("double_curve",), ((1, "curve"),))
    assert after.players[1].hand == ("curve",)
    assert after.players[0].hand == ("straight",) * 3 + ("double_curve", "curve")
    # seat 1's hand runs out: the rest comes from seat 2
    short: tuple[tuple[str, ...], ...] = (("straight",) * 5, ("curve",), ("tree_wye", "switch_left"))
    state = with_rider(with_rider(state_of(hands=short, pile=()), 1), 2)
    events, after = act(state, 0, PAIR)
    assert events[1] == TilesDrawn(0, (), ((1, "curve"), (2, "tree_wye")))
    assert after.players[1].hand == () and after.players[2].hand == ("switch_left",)


def test_riders_hands_are_not_drawn_while_the_pile_has_tiles() -> None:
    hands = (("straight",) * 5, ("curve",) * 5)
    state = with_rider(state_of(hands=hands, pile=("tree_wye",) * 4), 1)
    events, after = act(state, 0, PAIR)
    assert events[1] == TilesDrawn(0, ("tree_wye", "tree_wye"), ())
    assert after.players[1].hand == ("curve",) * 5
