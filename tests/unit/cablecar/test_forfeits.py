"""Resignations, timeouts and cancels in cable cars (rulings in
``domain/cablecar/turns.py`` and ``docs/rules/forfeits-and-clocks.md``).

A seat that resigns or times out is out: a forfeit on its own turn hands the
turn to the next seat still in, a forfeit off-turn changes nothing else, its
tiles stay on the board and its open hand stays as it is (nobody draws from
it), a stall counts only the seats still in, seats out rank below every
seat in, and the last seat in wins at once.  Most tests run both ways:
resigning (``seat_resigned``) and timing out (``seat_timed_out``).
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from domain.cablecar import GAME
from domain.cablecar.actions import DrawTile, Roll
from domain.cablecar.events import GameEnded, TilesDrawn, TurnEnded, TurnPassed
from domain.cablecar.state import CableCarState, Ride
from domain.core import Event, Standing, decode_event, replay
from domain.errors import GameFinished, IllegalAction, NotYourTurn
from domain.forfeits import GameCancelled, Resign, SeatResigned, SeatTimedOut
from tests.unit.cablecar.helpers import act, lay, new_game, place, random_action, state_of

HOW = ("resign", "time_out")
S5 = ("straight",) * 5
PAIR = lay(place("straight", 6, 6, 0), place("straight", 8, 8, 0))


def out_event(how: str, seat: int) -> Event:
    return SeatResigned(seat) if how == "resign" else SeatTimedOut(seat)


def standing(how: str) -> str:
    return "resigned" if how == "resign" else "timed_out"


def go_out(state: CableCarState, seat: int, how: str) -> tuple[list[Event], CableCarState]:
    """``seat`` resigns or times out; the events (checked to replay through JSON) and the state after."""
    events = GAME.decide(state, seat, Resign()) if how == "resign" else GAME.time_out(state, [seat])
    assert events[0] == out_event(how, seat)
    after = replay(GAME, events, state)
    stored = [decode_event(GAME, e.TYPE, json.loads(json.dumps(e.to_payload()))) for e in events]
    assert replay(GAME, stored, state) == after
    return events, after


def with_rider(state: CableCarState, seat: int, position: int = 0) -> CableCarState:
    ride = Ride("Presidio", "Mission Bay", ("Presidio", 24, "Mission Bay"), position)
    return state.with_player(seat, dataclasses.replace(state.players[seat], ride=ride))


# --- turns -------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_on_its_own_turn_hands_the_turn_to_the_next_seat_in(how: str) -> None:
    state = state_of(hands=(S5, S5, S5))
    events, after = go_out(state, 0, how)
    assert events[1:] == [TurnEnded(0, 1)]
    assert after.turn == 1 and after.turn_number == state.turn_number + 1
    assert GAME.active_seats(after) == (1,)


@pytest.mark.parametrize("how", HOW)
def test_the_turn_skips_a_seat_already_out(how: str) -> None:
    state = state_of(hands=(S5, S5, S5, S5))
    _, state = go_out(state, 1, how)
    events, state = go_out(state, 0, "resign")
    assert events[1:] == [TurnEnded(0, 2)]
    assert state.turn == 2


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_on_its_turn_passes_the_seats_in_that_cannot_act(how: str) -> None:
    state = state_of(hands=(S5, (), S5), pile=())
    events, state = go_out(state, 0, how)
    assert events[1:] == [TurnEnded(0, 1), TurnPassed(1, "no_legal_placement"), TurnEnded(1, 2)]
    assert state.turn == 2 and not state.finished


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_off_turn_changes_nothing_else(how: str) -> None:
    before = state_of(hands=(S5, S5, S5))
    events, after = go_out(before, 2, how)
    assert events == [out_event(how, 2)]
    assert after == dataclasses.replace(before, out=(None, None, standing(how)))


@pytest.mark.parametrize("how", HOW)
def test_turns_skip_seats_that_are_out(how: str) -> None:
    state = state_of(hands=(S5, S5, S5, S5), pile=("straight",) * 40)
    _, state = go_out(state, 1, how)
    _, state = go_out(state, 2, "resign")
    order = []
    rnd = random.Random(4)
    for _ in range(5):
        for seat in (1, 2):
            assert GAME.legal_actions(state, seat) == [] and GAME.sendable(state, seat) == []
            with pytest.raises(NotYourTurn):
                GAME.decide(state, seat, PAIR)
        order.append(state.turn)
        _, state = act(state, state.turn, random_action(state, rnd))
    assert order == [0, 3, 0, 3, 0]


@pytest.mark.parametrize("how", HOW)
def test_the_tiles_of_a_seat_out_stay_on_the_board(how: str) -> None:
    _, state = new_game(3, seed="forfeit")
    rnd = random.Random(1)
    _, state = act(state, 0, random_action(state, rnd))
    board, hand = state.board, state.players[0].hand
    assert board.placed()
    _, state = go_out(state, 0, how)
    _, state = act(state, 1, random_action(state, rnd))
    for square, orientation in board.placed():
        assert state.board.cells[square] == orientation
    assert state.players[0].hand == hand


@pytest.mark.parametrize("how", HOW)
def test_nobody_draws_from_the_open_hand_of_a_rider_that_is_out(how: str) -> None:
    # the riders still in hold exactly what is needed: the draw is automatic
    hands = (S5, ("curve", "curve"), ("tree_wye", "switch_left"))
    state = with_rider(with_rider(state_of(hands=hands, pile=()), 1), 2)
    _, state = go_out(state, 1, how)
    events, after = act(state, 0, PAIR)
    assert events[1:] == [TilesDrawn(0, (), ((2, "tree_wye"), (2, "switch_left")), ends_turn=True)]
    assert after.players[1].hand == ("curve", "curve")
    # with a choice, the seat that is out offers nothing either
    hands = (S5, ("curve", "curve"), ("tree_wye", "switch_left", "curve"))
    state = with_rider(with_rider(state_of(hands=hands, pile=()), 1), 2)
    _, state = go_out(state, 1, how)
    _, state = act(state, 0, PAIR)
    assert state.drawing
    assert {a.rider for a in GAME.legal_actions(state, 0)} == {2}  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction):
        GAME.decide(state, 0, DrawTile("rider", 1, "curve"))


@pytest.mark.parametrize("how", HOW)
def test_a_riding_seat_out_keeps_its_tram_where_it_is(how: str) -> None:
    state = with_rider(state_of(hands=(S5, (), S5)), 1, position=1)
    _, state = act(state, 0, PAIR)
    assert state.turn == 1
    events, state = go_out(state, 1, how)
    assert events[1:] == [TurnEnded(1, 2)]
    ride = state.players[1].ride
    assert ride is not None and ride.position == 1
    assert GAME.view(state, None)["players"][1]["riding"] is True


# --- stalls ------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_a_stall_counts_only_the_seats_still_in(how: str) -> None:
    state = state_of(hands=(("curve",), (), ()), pile=())
    _, state = go_out(state, 2, how)
    events, state = act(state, 0, lay(place("curve", 6, 6, 0)))
    assert events[0].ends_turn  # type: ignore[attr-defined]
    assert events[1:] == [
        TurnPassed(1, "no_legal_placement"),
        TurnEnded(1, 0),
        TurnPassed(0, "no_legal_placement"),
        GameEnded((), "stalled"),
    ]
    assert GAME.result(state) == {
        "winners": [],
        "reason": "stalled",
        "players": [{"seat": 0, "standing": "in"}, {"seat": 1, "standing": "in"}, {"seat": 2, "standing": standing(how)}],
    }
    # nobody wins a stalled game, but a seat out still ranks below the seats in
    assert GAME.standings(state) == (
        Standing(seat=0, rank=1, winner=False),
        Standing(seat=1, rank=1, winner=False),
        Standing(seat=2, rank=3, winner=False),
    )


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_on_its_turn_can_stall_the_seats_left(how: str) -> None:
    state = state_of(hands=(S5, (), ()), pile=())
    events, state = go_out(state, 0, how)
    assert events[1:] == [
        TurnEnded(0, 1),
        TurnPassed(1, "no_legal_placement"),
        TurnEnded(1, 2),
        TurnPassed(2, "no_legal_placement"),
        GameEnded((), "stalled"),
    ]


@pytest.mark.parametrize("how", HOW)
def test_passes_by_seats_now_out_do_not_stall_a_seat_in_that_can_still_act(how: str) -> None:
    """Seat 1 passed, then went out; seat 2 goes out on its turn and seat 3
    cannot act: seat 0, which can still lay tiles, has not passed, so the
    game goes on (every seat *still in* must have passed in a row)."""
    state = state_of(hands=(S5, (), S5, ()), pile=())
    events, state = act(state, 0, PAIR)
    assert events[-2:] == [TurnPassed(1, "no_legal_placement"), TurnEnded(1, 2)]
    _, state = go_out(state, 1, how)  # off-turn
    events, state = go_out(state, 2, how)  # on its turn
    assert events[1:] == [TurnEnded(2, 3), TurnPassed(3, "no_legal_placement"), TurnEnded(3, 0)]
    assert not state.finished and state.turn == 0
    assert GAME.legal_actions(state, 0)
    events, state = act(state, 0, lay(place("straight", 4, 4, 0), place("straight", 10, 10, 0)))
    assert events[-2:] == [TurnPassed(3, "no_legal_placement"), TurnEnded(3, 0)]
    # once seat 0 has laid its last tile and passed too, the game stalls
    events, state = act(state, 0, lay(place("straight", 2, 2, 0)))
    assert events[-1] == GameEnded((), "stalled")


# --- the end -----------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_the_last_seat_in_wins_at_once(how: str) -> None:
    state = state_of(hands=(S5, S5))
    events, state = go_out(state, 1, how)  # off-turn
    assert events[1:] == [GameEnded((0,), "forfeit")]
    assert GAME.status(state) == "finished" and GAME.active_seats(state) == ()
    assert GAME.result(state) == {
        "winners": [0],
        "reason": "forfeit",
        "players": [{"seat": 0, "standing": "in"}, {"seat": 1, "standing": standing(how)}],
    }
    assert GAME.standings(state) == (Standing(seat=0, rank=1, winner=True), Standing(seat=1, rank=2, winner=False))


@pytest.mark.parametrize("how", HOW)
def test_the_last_seat_in_wins_when_the_seat_to_play_goes_out(how: str) -> None:
    state = state_of(hands=(S5, S5, S5))
    _, state = go_out(state, 1, "resign")
    events, state = go_out(state, 0, how)
    assert events[1:] == [GameEnded((2,), "forfeit")]  # no turn handed over
    assert GAME.standings(state) == (
        Standing(seat=0, rank=2, winner=False),
        Standing(seat=1, rank=2, winner=False),
        Standing(seat=2, rank=1, winner=True),
    )
    assert GAME.seat_standings(state) == (standing(how), "resigned", "in")


@pytest.mark.parametrize("how", HOW)
def test_an_arrival_ranks_the_seats_in_above_the_seats_out(how: str) -> None:
    state = with_rider(state_of(hands=(S5, S5, S5)), 0, position=1)
    _, state = go_out(state, 2, how)
    events, state = act(state, 0, Roll())
    assert events[-1] == GameEnded((0,), "destination_reached")
    assert GAME.standings(state) == (
        Standing(seat=0, rank=1, winner=True),
        Standing(seat=1, rank=2, winner=False),
        Standing(seat=2, rank=3, winner=False),
    )


# --- guards ------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_a_seat_already_out_cannot_resign_or_time_out(how: str) -> None:
    _, state = go_out(state_of(hands=(S5, S5, S5)), 1, how)
    for attempt in (lambda: GAME.decide(state, 1, Resign()), lambda: GAME.time_out(state, [1])):
        with pytest.raises(IllegalAction) as refused:
            attempt()
        assert refused.value.code == "already_out"


def test_after_the_end_nothing_more_goes_out_and_nothing_is_cancelled() -> None:
    _, state = go_out(state_of(hands=(S5, S5)), 0, "resign")
    for attempt in (
        lambda: GAME.decide(state, 1, Resign()),
        lambda: GAME.time_out(state, [1]),
        lambda: GAME.time_out(state, [0]),
        lambda: GAME.cancel(state),
    ):
        with pytest.raises(GameFinished):
            attempt()


def test_resign_is_sendable_by_every_seat_in_and_last() -> None:
    state = state_of(hands=(S5, S5, S5))
    mine = GAME.sendable(state, 0)
    assert mine[-1] == Resign() and len(mine) > 1 and Resign() not in mine[:-1]
    assert GAME.sendable(state, 1) == [Resign()] and GAME.sendable(state, 2) == [Resign()]


def test_the_resign_event_opens_a_resign_move_a_timeout_none() -> None:
    assert GAME.action_of(SeatResigned(1)) == (1, Resign())
    assert GAME.action_of(SeatTimedOut(1)) is None
    assert GAME.action_of(GameCancelled()) is None


# --- cancel ------------------------------------------------------------------


def test_a_cancelled_game_is_over_without_a_result() -> None:
    state = state_of(hands=(S5, S5, S5))
    _, state = go_out(state, 2, "time_out")
    events = GAME.cancel(state)
    assert events == [GameCancelled()]
    state = replay(GAME, events, state)
    assert GAME.status(state) == "cancelled" and GAME.is_over(state)
    assert GAME.result(state) is None and GAME.standings(state) is None
    assert GAME.active_seats(state) == ()
    assert GAME.seat_standings(state) == ("in", "in", "timed_out")
    for seat in range(3):
        assert GAME.sendable(state, seat) == [] and GAME.legal_actions(state, seat) == []
    for viewer in (None, 0, 1, 2):
        view = GAME.view(state, viewer)
        assert view["status"] == "cancelled" and view["result"] is None and view["turn"] is None
    for attempt in (
        lambda: GAME.cancel(state),
        lambda: GAME.decide(state, 0, Resign()),
        lambda: GAME.time_out(state, [0]),
    ):
        with pytest.raises(GameFinished):
            attempt()


def test_a_finished_game_cannot_be_cancelled() -> None:
    state = with_rider(state_of(hands=(S5, S5)), 0, position=1)
    _, state = act(state, 0, Roll())
    assert GAME.status(state) == "finished"
    with pytest.raises(GameFinished):
        GAME.cancel(state)


@pytest.mark.parametrize("how", HOW)
def test_a_draw_choice_lost_with_a_rider_that_goes_out_ends_the_turn(how: str) -> None:
    hands = (S5, ("curve", "switch_left", "tree_wye"), S5)
    state = with_rider(state_of(hands=hands, pile=()), 1)
    _, state = act(state, 0, PAIR)
    assert state.drawing and GAME.legal_actions(state, 0)
    _, state = go_out(state, 1, how)
    # nothing is left to choose from: the turn is over instead of waiting for ever
    assert not state.drawing and state.turn == 2
