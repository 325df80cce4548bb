"""Turn order rulings: laying one tile, passing, stalling, drawing (from the pile or riders' hands)."""

from __future__ import annotations

import dataclasses

import pytest

from domain.cablecar import GAME
from domain.cablecar.actions import DrawTile, LayTiles
from domain.cablecar.events import GameEnded, TileDrawn, TilesDrawn, TilesLaid, TurnEnded, TurnPassed
from domain.cablecar.state import CableCarState, Ride
from domain.cablecar.turns import can_act
from domain.errors import IllegalAction, NotYourTurn
from tests.unit.cablecar.helpers import act, board_of, lay, place, presidio_route_board, state_of, types

PAIR = lay(place("straight", 6, 6, 0), place("straight", 8, 8, 0))


def with_rider(state: CableCarState, seat: int) -> CableCarState:
    ride = Ride("Presidio", "Mission Bay", ("Presidio", 24, "Mission Bay"))
    return state.with_player(seat, dataclasses.replace(state.players[seat], ride=ride))


def test_a_player_who_cannot_lay_two_lays_one() -> None:
    state = state_of(hands=(("curve",), ("straight",)), pile=())
    actions = GAME.legal_actions(state, 0)
    assert actions and all(isinstance(a, LayTiles) and len(a.placements) == 1 for a in actions)
    events, after = act(state, 0, lay(place("curve", 6, 6, 0)))
    assert types(events) == ["tiles_laid+turn_ended"]
    assert after.players[0].hand == () and after.turn == 1


def test_a_player_who_cannot_lay_passes() -> None:
    state = state_of(hands=(("straight", "straight", "curve"), ()), pile=())
    assert not can_act(state, 1)
    events, after = act(state, 0, PAIR)
    assert types(events)[0] == "tiles_laid+turn_ended"
    assert events[1:] == [TurnPassed(1, "no_legal_placement"), TurnEnded(1, 0)]
    assert after.turn == 0 and after.passes == 1 and GAME.status(after) == "playing"


def test_a_player_with_a_complete_network_is_not_passed() -> None:
    board = board_of(presidio_route_board(), {"H": (4, 10), "M": (3, 6)})
    state = state_of(
        board, hands=(("straight", "straight"), ()), lines=("1", "3"), routes=((), ("H", "M")), pile=()
    )
    assert can_act(state, 1)
    events, after = act(state, 0, lay(place("straight", 6, 6, 0), place("straight", 8, 8, 0)))
    assert types(events) == ["tiles_laid+turn_ended"] and after.turn == 1


def test_when_every_seat_passes_in_a_row_the_game_ends_without_a_winner() -> None:
    state = state_of(hands=(("curve",), ()), pile=())
    events, after = act(state, 0, lay(place("curve", 6, 6, 0)))
    assert types(events)[0] == "tiles_laid+turn_ended"
    assert events[1:] == [
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
    assert types(events) == ["tiles_laid+turn_ended"]


def test_with_an_empty_pile_players_play_on_with_what_they_hold() -> None:
    state = state_of(hands=(("straight",) * 5, ("curve",) * 5), pile=("double_curve",))
    events, after = act(state, 0, PAIR)
    assert events[1] == TilesDrawn(0, ("double_curve",), (), ends_turn=True)
    assert len(after.players[0].hand) == 4 and after.pile == ()
    events, after = act(after, 1, lay(place("curve", 10, 10, 0), place("curve", 2, 2, 1)))
    assert types(events) == ["tiles_laid+turn_ended"]
    assert len(after.players[1].hand) == 3


def test_once_the_pile_is_empty_riders_hands_are_drawn_automatically_when_nothing_is_left_to_choose() -> None:
    # seat 0 needs two; the riders hold exactly two: no choice, clockwise from the drawer
    short: tuple[tuple[str, ...], ...] = (("straight",) * 5, ("curve",), ("tree_wye",))
    state = with_rider(with_rider(state_of(hands=short, pile=()), 1), 2)
    events, after = act(state, 0, PAIR)
    assert events[1:] == [TilesDrawn(0, (), ((1, "curve"), (2, "tree_wye")), ends_turn=True)]
    assert after.players[1].hand == () and after.players[2].hand == () and after.turn == 1
    # one rider, one kind of tile: no choice either
    state = with_rider(state_of(hands=(("straight",) * 5, ("curve",) * 4), pile=()), 1)
    events, after = act(state, 0, PAIR)
    assert events[1:] == [TilesDrawn(0, (), ((1, "curve"), (1, "curve")), ends_turn=True)] and after.turn == 1


def test_under_cable_car_3_a_riders_open_hand_is_the_drawing_players_choice_tile_by_tile() -> None:
    hands = (("straight",) * 5, ("curve", "switch_left"), ("tree_wye", "curve"))
    state = with_rider(with_rider(state_of(hands=hands, pile=("double_curve", "straight")), 1), 2)
    state = dataclasses.replace(state, rules=3)  # since /4 only once the pile is empty
    events, after = act(state, 0, PAIR)
    # laid, then nothing drawn: the turn waits for the choice
    assert [type(e) for e in events] == [TilesLaid] and after.drawing and after.turn == 0
    offered = GAME.legal_actions(after, 0)
    assert offered == [
        DrawTile("pile"),
        DrawTile("rider", 1, "curve"),
        DrawTile("rider", 1, "switch_left"),
        DrawTile("rider", 2, "tree_wye"),
        DrawTile("rider", 2, "curve"),
    ]
    assert GAME.legal_actions(after, 1) == []
    events, after = act(after, 0, DrawTile("rider", 2, "tree_wye"))
    assert events == [TileDrawn(0, "rider", 2, "tree_wye")] and after.players[2].hand == ("curve",)
    events, after = act(after, 0, DrawTile("pile"))
    assert events == [TileDrawn(0, "pile", None, "double_curve", ends_turn=True)]
    assert after.players[0].hand == ("straight",) * 3 + ("tree_wye", "double_curve")
    assert after.pile == ("straight",) and not after.drawing and after.turn == 1


def test_a_draw_choice_refuses_what_is_not_offered_and_nothing_else_is_legal_meanwhile() -> None:
    hands = (("straight",) * 5, ("curve", "switch_left", "curve"))
    state = with_rider(state_of(hands=hands, pile=()), 1)
    _, after = act(state, 0, lay(place("straight", 6, 6, 0), place("straight", 8, 8, 0)))
    assert after.drawing
    for action, code in [
        (DrawTile("pile"), "pile_empty"),
        (DrawTile("rider", 1, "tree_wye"), "tile_not_in_hand"),
        (DrawTile("rider", 0, "straight"), "not_a_rider"),
        (lay(place("straight", 4, 4, 0), place("straight", 2, 2, 0)), "draw_in_progress"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            GAME.decide(after, 0, action)
        assert refused.value.code == code
    with pytest.raises(NotYourTurn):
        GAME.decide(after, 1, DrawTile("rider", 1, "curve"))
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(state, 0, DrawTile("pile"))
    assert refused.value.code == "not_drawing"


def test_games_under_the_first_rules_keep_the_automatic_draw() -> None:
    hands = (("straight",) * 5, ("curve",) * 5)
    state = with_rider(state_of(hands=hands, pile=("tree_wye",) * 4), 1)
    legacy = dataclasses.replace(state, rules=1, board=dataclasses.replace(state.board, rules=1))
    events, after = act(legacy, 0, PAIR)
    assert events[1:] == [TilesDrawn(0, ("tree_wye", "tree_wye"), ()), TurnEnded(0, 1)]
    assert after.players[1].hand == ("curve",) * 5 and after.turn == 1
    # cable-car/2 and /3 offered the choice in the same position
    _, after = act(dataclasses.replace(state, rules=3), 0, PAIR)
    assert after.drawing and DrawTile("rider", 1, "curve") in GAME.legal_actions(after, 0)
    # the current rules draw from the pile while it holds tiles, as /1 did
    events, after = act(state, 0, PAIR)
    assert events[1:] == [TilesDrawn(0, ("tree_wye", "tree_wye"), (), ends_turn=True)]
