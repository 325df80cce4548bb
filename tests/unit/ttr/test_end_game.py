"""The final round, automatic passes, the stalemate ruling and the end."""

from __future__ import annotations

import pytest

from domain.errors import GameFinished
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard
from domain.ttr.board import load_board
from domain.ttr.events import GameEnded, LastRoundStarted, TurnPassed

from .helpers import act, crafted, types

BOARD = load_board()
DECK = DrawCard("deck")


def black(route: str = "marina--fort-mason") -> ClaimRoute:
    return ClaimRoute.paying(route, {"black": 1})


def test_the_last_round_gives_everyone_one_more_turn_trigger_last() -> None:
    state = crafted(hands=[("black", "black"), ()], cars=[3, 20])
    events, state = act(state, 0, black())
    assert types(events) == ["route_claimed+turn_ended", "last_round_started"]
    assert events[-1] == LastRoundStarted(seat=0, cars=2)
    assert GAME.status(state) == "last_round" and state.final_turns_left == 2 and state.turn == 1
    _, state = act(state, 1, DECK)
    events, state = act(state, 1, DECK)
    assert types(events) == ["card_drawn+turn_ended"] and state.final_turns_left == 1
    events, state = act(state, 0, black("chinatown--nob-hill"))
    assert types(events) == ["route_claimed+turn_ended", "game_ended"]  # no second trigger
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "final_round"
    assert GAME.status(state) == "finished" and GAME.active_seats(state) == ()
    with pytest.raises(GameFinished):
        GAME.decide(state, 1, DECK)
    assert GAME.legal_actions(state, 1) == []


def test_three_players_the_others_play_first_in_turn_order() -> None:
    state = crafted(3, hands=[(), ("black",), ()], cars=[20, 3, 20], turn=1)
    _, state = act(state, 1, black())
    order = []
    while GAME.status(state) != "finished":
        seat = state.turn
        order.append(seat)
        _, state = act(state, seat, DECK)
        if state.turn == seat and GAME.status(state) != "finished":
            _, state = act(state, seat, DECK)
    assert order == [2, 0, 1]


def test_ending_any_turn_with_two_cars_starts_the_last_round() -> None:
    state = crafted(cars=[2, 20])
    _, state = act(state, 0, DECK)
    events, state = act(state, 0, DECK)
    assert types(events)[-2:] == ["card_drawn+turn_ended", "last_round_started"]
    assert events[-1] == LastRoundStarted(seat=0, cars=2)


def test_a_seat_without_any_legal_action_passes_automatically() -> None:
    row = ("red", "red", None, None, None)
    state = crafted(face_up=row, deck=(), hands=[(), ()], ticket_deck=())
    _, state = act(state, 0, DrawCard("face_up", 0))
    events, state = act(state, 0, DrawCard("face_up", 1))
    assert types(events) == ["card_drawn+turn_ended", "turn_passed"]
    assert events[-1] == TurnPassed(seat=1)
    assert state.turn == 0 and state.passes == 1 and GAME.status(state) == "playing"


def test_a_full_round_of_passes_ends_the_game() -> None:
    ones = {r.id: 1 for r in BOARD.routes if r.length == 1}
    state = crafted(face_up=("red",), deck=(), hands=[(), ()], ticket_deck=(), claimed=ones)
    events, state = act(state, 0, DrawCard("face_up", 0))
    assert types(events) == ["card_drawn+turn_ended", "turn_passed", "turn_passed", "game_ended"]
    assert events[1:3] == [TurnPassed(seat=1), TurnPassed(seat=0)]
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "stalemate"
    assert GAME.status(state) == "finished"
    result = GAME.result(state)
    assert result is not None and result["reason"] == "stalemate"
    assert end.winners == (1,) and end.totals[1] == len(ones)


def test_a_pass_uses_up_a_final_turn() -> None:
    row = ("red", "red", None, None, None)
    state = crafted(face_up=row, deck=(), hands=[(), ()], ticket_deck=(), cars=[2, 20])
    _, state = act(state, 0, DrawCard("face_up", 0))
    events, state = act(state, 0, DrawCard("face_up", 1))
    # seat 0 ended with 2 cars: last round; seat 1 cannot act and passes;
    # seat 0 still has its final turn (it holds two red cards)
    assert types(events) == ["card_drawn+turn_ended", "last_round_started", "turn_passed"]
    assert state.final_turns_left == 1 and state.turn == 0
    events, _ = act(state, 0, ClaimRoute.paying("pacific-heights--japantown-b", {"red": 1}))
    assert types(events)[-1] == "game_ended"
