"""Resignations, timeouts and cancels in ttr-sf (rulings in ``domain/ttr/turns.py``
and ``docs/rules/forfeits-and-clocks.md``).

A seat that resigns or times out is out: its turns are skipped, a setup or
ticket choice it still owed is made by the stated default (every pending
ticket kept; a set-aside souvenir stack to the first location in board
order without a stack, first set-aside symbol first), its routes stay, it
ranks below every seat still in, and the last seat in wins at once.  Most
tests run twice: once resigning (``seat_resigned``, the ``resign`` action)
and once timing out (``seat_timed_out``, :meth:`GameDefinition.time_out`),
whose consequences must be the same.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from domain.core import Event, Standing, decode_event, replay
from domain.errors import GameFinished, IllegalAction, NotYourTurn
from domain.forfeits import GameCancelled, Resign, SeatResigned, SeatTimedOut
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets, PlaceSouvenirStack
from domain.ttr.events import (
    GameEnded,
    LastRoundStarted,
    PlayStarted,
    SouvenirStackPlaced,
    TicketsKept,
    TurnEnded,
    TurnPassed,
)
from domain.ttr.legal import keep_choices
from domain.ttr.state import TtrState

from .helpers import BOARD, act, crafted, finish_setup, new_game, types

DECK = DrawCard("deck")
HOW = ("resign", "time_out")
#: 17 points of routes: whoever holds them leads by far
LEADER_ROUTES = ("golden-gate-bridge--fort-mason", "the-embarcadero--alcatraz")
ONE_SPACE = {r.id: 1 for r in BOARD.routes if r.length == 1}


def out_event(how: str, seat: int) -> Event:
    return SeatResigned(seat) if how == "resign" else SeatTimedOut(seat)


def go_out(state: TtrState, seat: int, how: str) -> tuple[list[Event], TtrState]:
    """``seat`` resigns or times out; the events (checked to replay through JSON) and the state after."""
    events = GAME.decide(state, seat, Resign()) if how == "resign" else GAME.time_out(state, [seat])
    assert events[0] == out_event(how, seat)
    after = replay(GAME, events, state)
    stored = [decode_event(GAME, e.TYPE, json.loads(json.dumps(e.to_payload()))) for e in events]
    assert replay(GAME, stored, state) == after
    return events, after


def standing(how: str) -> str:
    return "resigned" if how == "resign" else "timed_out"


def play_turn(state: TtrState) -> tuple[int, TtrState]:
    """The seat to play draws two cards from the deck; (that seat, the state after)."""
    seat = state.turn
    _, state = act(state, seat, DECK)
    if state.turn == seat and not state.finished:
        _, state = act(state, seat, DECK)
    return seat, state


def black(route: str = "marina--fort-mason") -> ClaimRoute:
    return ClaimRoute.paying(route, {"black": 1})


def first_free_location(state: TtrState) -> str:
    taken = {s.location for s in state.stacks}
    return next(loc.id for loc in BOARD.locations if loc.id not in taken)


def keep_all(state: TtrState, seat: int) -> tuple[list[Event], TtrState]:
    return act(state, seat, keep_choices(state.players[seat].pending)[-1])


# --- setup -------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_a_placer_out_in_setup_keeps_its_tickets_and_places_its_stack_by_default(how: str) -> None:
    _, state = new_game(3)
    assert state.placers == (2, 1)
    pending = state.players[2].pending
    symbol, location = state.set_aside[0], first_free_location(state)
    assert location == "presidio"  # golden-gate-bridge, first in board order, holds a stack
    events, state = go_out(state, 2, how)
    assert events[1:] == [
        TicketsKept(seat=2, kept=pending, returned=(), kept_count=2, returned_count=0),
        SouvenirStackPlaced(seat=2, symbol=symbol, location=location, count=2),
    ]
    assert state.players[2].tickets == pending and state.players[2].pending == ()
    assert state.stack_at("presidio") is not None and state.placers == (1,)
    assert GAME.status(state) == "setup" and GAME.active_seats(state) == (0, 1)
    assert GAME.sendable(state, 2) == [] and GAME.legal_actions(state, 2) == []
    # setup completes and play starts with the start seat
    _, state = keep_all(state, 0)
    _, state = keep_all(state, 1)
    events, state = act(state, 1, PlaceSouvenirStack(state.set_aside[0], "marina"))
    assert events[-1] == PlayStarted(seat=0)
    assert GAME.status(state) == "playing" and GAME.active_seats(state) == (0,)


@pytest.mark.parametrize("how", HOW)
def test_a_stack_owed_later_by_a_seat_out_is_placed_when_its_placement_comes(how: str) -> None:
    _, state = new_game(3)
    events, state = go_out(state, 1, how)  # the second placer: seat 2 places first
    assert types(events) == [events[0].TYPE, "tickets_kept"]
    assert state.placers == (2, 1) and state.set_aside == ("cable-car-bell", "bridge")
    events, state = act(state, 2, PlaceSouvenirStack("bridge", "marina"))
    assert events == [
        SouvenirStackPlaced(seat=2, symbol="bridge", location="marina", count=2),
        # the stack seat 1 owed: the first set-aside symbol left, the first free location
        SouvenirStackPlaced(seat=1, symbol="cable-car-bell", location="presidio", count=2),
    ]
    assert state.placers == () and state.set_aside == ()
    _, state = keep_all(state, 0)
    events, state = keep_all(state, 2)
    assert events[-1] == PlayStarted(seat=0)


@pytest.mark.parametrize("how", HOW)
def test_both_placers_out_both_stacks_are_placed_in_placing_order(how: str) -> None:
    _, state = new_game(4)
    assert state.placers == (3, 2) and state.set_aside_size == 3
    first, second = state.set_aside
    events, state = go_out(state, 2, how)
    assert types(events)[1:] == ["tickets_kept"]
    events, state = go_out(state, 3, how)
    assert events[2:] == [
        SouvenirStackPlaced(seat=3, symbol=first, location="presidio", count=3),
        SouvenirStackPlaced(seat=2, symbol=second, location="marina", count=3),
    ]
    assert GAME.active_seats(state) == (0, 1)
    _, state = keep_all(state, 1)
    events, state = keep_all(state, 0)
    assert events[-1] == PlayStarted(seat=0)


@pytest.mark.parametrize("how", HOW)
def test_the_forfeit_of_the_last_seat_owing_a_choice_completes_setup(how: str) -> None:
    _, state = new_game(3)
    _, state = keep_all(state, 0)
    _, state = keep_all(state, 2)
    _, state = act(state, 2, PlaceSouvenirStack("bridge", "marina"))
    assert GAME.active_seats(state) == (1,)
    events, state = go_out(state, 1, how)
    assert types(events)[1:] == ["tickets_kept", "souvenir_stack_placed", "play_started"]
    assert events[-1] == PlayStarted(seat=0)
    assert GAME.status(state) == "playing" and state.turn == 0


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize(("players", "start", "first"), [(3, 0, 1), (4, 2, 3), (4, 3, 0)])
def test_play_starts_with_the_first_seat_still_in_when_the_start_seat_is_out(
    how: str, players: int, start: int, first: int
) -> None:
    _, state = new_game(players, start_seat=start)
    events, state = go_out(state, start, how)
    assert types(events)[1] == "tickets_kept"
    _, state = finish_setup(state)
    assert state.turn == first and GAME.active_seats(state) == (first,)
    assert state.players[start].tickets and not state.players[start].pending


@pytest.mark.parametrize("how", HOW)
def test_a_seat_that_already_chose_goes_out_in_setup_without_further_events(how: str) -> None:
    _, state = new_game(3)
    _, before = keep_all(state, 0)
    events, state = go_out(before, 0, how)
    assert len(events) == 1
    assert state == replace(before, out=(standing(how), None, None))


@pytest.mark.parametrize("how", HOW)
def test_two_players_in_setup_the_other_seat_wins_at_once(how: str) -> None:
    _, state = new_game(2)
    assert state.placers == (1, 1)
    first, second = state.set_aside
    events, state = go_out(state, 1, how)
    assert events[1:4] == [
        TicketsKept(seat=1, kept=("T07", "T24"), returned=(), kept_count=2, returned_count=0),
        SouvenirStackPlaced(seat=1, symbol=first, location="presidio", count=1),
        SouvenirStackPlaced(seat=1, symbol=second, location="marina", count=1),
    ]
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "forfeit" and end.winners == (0,)
    assert GAME.is_over(state) and GAME.status(state) == "finished"
    result = GAME.result(state)
    assert result is not None and result["winners"] == [0] and result["reason"] == "forfeit"
    assert [p["standing"] for p in result["players"]] == ["in", standing(how)]


# --- turns -------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_off_turn_changes_nothing_else(how: str) -> None:
    before = crafted(3)
    events, state = go_out(before, 1, how)
    assert events == [out_event(how, 1)]
    assert state == replace(before, out=(None, standing(how), None))


@pytest.mark.parametrize("how", HOW)
def test_turns_skip_seats_that_are_out(how: str) -> None:
    state = crafted(4)
    _, state = go_out(state, 1, how)
    _, state = go_out(state, 2, "resign")
    order = []
    for _ in range(5):
        for seat in (1, 2):
            assert seat not in GAME.active_seats(state)
            assert GAME.legal_actions(state, seat) == [] and GAME.sendable(state, seat) == []
            with pytest.raises(NotYourTurn):
                GAME.decide(state, seat, DECK)
        seat, state = play_turn(state)
        order.append(seat)
    assert order == [0, 3, 0, 3, 0]


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_on_its_turn_hands_the_turn_to_the_next_seat_in(how: str) -> None:
    state = crafted(3)
    turns = state.turns
    events, state = go_out(state, 0, how)
    assert events[1:] == [TurnEnded(seat=0)]
    assert state.turn == 1 and state.turns == turns + 1 and state.phase == "turn_start"


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_between_two_card_draws_ends_the_turn(how: str) -> None:
    _, state = act(crafted(3), 0, DECK)
    assert state.phase == "second_draw"
    events, state = go_out(state, 0, how)
    assert events[1:] == [TurnEnded(seat=0)]
    assert state.turn == 1 and state.phase == "turn_start"


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_while_choosing_drawn_tickets_keeps_them_all(how: str) -> None:
    state = crafted(3, ticket_deck=("T01", "T02", "T03"))
    _, state = act(state, 0, DrawTickets())
    events, state = go_out(state, 0, how)
    assert events[1:] == [
        TicketsKept(seat=0, kept=("T01", "T02"), returned=(), kept_count=2, returned_count=0),
        TurnEnded(seat=0),
    ]
    assert state.players[0].tickets == ("T01", "T02") and state.ticket_deck == ("T03",)
    assert state.turn == 1


@pytest.mark.parametrize("how", HOW)
def test_claimed_routes_stay_and_still_block(how: str) -> None:
    state = crafted(3, hands=[("black",), (), ("black",)], turn=0)
    _, state = act(state, 0, black())
    _, state = go_out(state, 0, how)
    assert state.claimed[BOARD.routes_by_id["marina--fort-mason"].index] == 0
    assert state.players[0].routes == ("marina--fort-mason",)
    _, state = play_turn(state)  # seat 1
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(state, 2, black())
    assert refused.value.code == "route_taken"


# --- the end -----------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_when_one_seat_is_left_in_it_wins_at_once(how: str) -> None:
    state = crafted(3, claimed=dict.fromkeys(LEADER_ROUTES, 0))
    _, state = go_out(state, 1, "resign")
    events, state = go_out(state, 0, how)  # on its own turn
    assert types(events)[1:] == ["game_ended"]  # no turn is handed over
    end = events[-1]
    assert isinstance(end, GameEnded)
    assert end.reason == "forfeit" and end.winners == (2,) and end.totals == (17, 0, 0)
    assert GAME.is_over(state) and GAME.active_seats(state) == ()
    assert GAME.standings(state) == (
        Standing(seat=0, rank=2, winner=False, score=17, completed_tickets=0),
        Standing(seat=1, rank=3, winner=False, score=0, completed_tickets=0),
        Standing(seat=2, rank=1, winner=True, score=0, completed_tickets=0),
    )
    result = GAME.result(state)
    assert result is not None
    assert result["winners"] == [2] and result["reason"] == "forfeit"
    assert [p["standing"] for p in result["players"]] == [standing(how), "resigned", "in"]
    assert [p["total"] for p in result["players"]] == [17, 0, 0]


@pytest.mark.parametrize("how", HOW)
def test_the_player_who_would_win_on_points_forfeits_and_does_not_win(how: str) -> None:
    state = crafted(2, claimed=dict.fromkeys(LEADER_ROUTES, 0), turn=1)
    events, state = go_out(state, 0, how)
    end = events[-1]
    assert isinstance(end, GameEnded) and end.winners == (1,) and end.totals == (17, 0)
    standings = GAME.standings(state)
    assert standings is not None
    assert [(s.rank, s.winner, s.score) for s in standings] == [(2, False, 17), (1, True, 0)]


@pytest.mark.parametrize("how", HOW)
def test_the_points_leader_out_ranks_below_every_seat_in_at_the_normal_end(how: str) -> None:
    claimed = dict.fromkeys(LEADER_ROUTES, 0) | {"golden-gate-park--sunset": 1}
    state = crafted(3, hands=[(), ("black",), ()], cars=[20, 3, 20], claimed=claimed, turn=1)
    _, state = go_out(state, 0, how)
    _, state = act(state, 1, black())  # last round: seat 2, then seat 1
    assert state.final_turns_left == 2
    _, state = play_turn(state)
    _, state = play_turn(state)
    end = GAME.result(state)
    assert end is not None and end["reason"] == "final_round" and end["winners"] == [1]
    standings = GAME.standings(state)
    assert standings is not None
    assert [(s.seat, s.rank, s.winner, s.score) for s in standings] == [
        (0, 3, False, 17),
        (1, 1, True, 2),
        (2, 2, False, 0),
    ]


def test_seats_out_rank_among_themselves_by_points() -> None:
    claimed = dict.fromkeys(LEADER_ROUTES, 0) | {"golden-gate-park--sunset": 1}
    state = crafted(4, claimed=claimed, turn=3)
    _, state = go_out(state, 0, "resign")
    _, state = go_out(state, 1, "time_out")
    _, state = go_out(state, 2, "resign")
    standings = GAME.standings(state)
    assert standings is not None
    assert [(s.seat, s.rank, s.winner) for s in standings] == [(0, 2, False), (1, 3, False), (2, 4, False), (3, 1, True)]
    assert GAME.seat_standings(state) == ("resigned", "timed_out", "resigned", "in")


def test_tied_seats_out_share_a_rank_below_the_seats_in() -> None:
    state = crafted(4, turn=3)
    _, state = go_out(state, 0, "resign")
    _, state = go_out(state, 1, "time_out")
    _, state = go_out(state, 3, "resign")
    standings = GAME.standings(state)
    assert standings is not None
    assert [(s.rank, s.winner) for s in standings] == [(2, False), (2, False), (1, True), (2, False)]


@pytest.mark.parametrize("how", HOW)
def test_a_stalemate_counts_only_the_seats_still_in(how: str) -> None:
    state = crafted(3, face_up=("red",), deck=(), hands=[(), (), ()], ticket_deck=(), claimed=ONE_SPACE)
    _, state = go_out(state, 2, how)
    events, state = act(state, 0, DrawCard("face_up", 0))
    assert types(events) == ["card_drawn+turn_ended", "turn_passed", "turn_passed", "game_ended"]
    assert events[1:3] == [TurnPassed(seat=1), TurnPassed(seat=0)]
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "stalemate" and end.winners == (1,)


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_on_its_turn_can_lead_straight_to_a_stalemate(how: str) -> None:
    state = crafted(3, face_up=(), deck=(), hands=[(), (), ()], ticket_deck=(), claimed=ONE_SPACE)
    events, state = go_out(state, 0, how)
    assert events[1:] == [
        TurnEnded(seat=0),
        TurnPassed(seat=1),
        TurnPassed(seat=2),
        GameEnded(reason="stalemate", totals=(0, len(ONE_SPACE), 0), winners=(1,)),
    ]


# --- the last round ----------------------------------------------------------


def last_round(players: int = 3) -> TtrState:
    """Seat 0 has just started the last round (every seat in): seat 1 is to play."""
    hands = [("black", "black")] + [()] * (players - 1)
    state = crafted(players, hands=hands, cars=[3] + [20] * (players - 1))
    events, state = act(state, 0, black())
    assert events[-1] == LastRoundStarted(seat=0, cars=2)
    assert state.final_turns_left == players and state.turn == 1
    return state


def finish(state: TtrState) -> tuple[list[int], TtrState]:
    """Play turns until the end: the seats that played, in order."""
    order = []
    while not state.finished:
        seat = state.turn
        if seat == 0 and state.players[0].hand:  # seat 0 claims on its final turn
            _, state = act(state, 0, black("chinatown--nob-hill"))
        else:
            _, state = play_turn(state)
        order.append(seat)
    return order, state


def test_without_forfeits_every_seat_plays_its_final_turn() -> None:
    order, state = finish(last_round())
    assert order == [1, 2, 0] and state.end_reason == "final_round"


@pytest.mark.parametrize("how", HOW)
def test_a_final_turn_the_seat_out_had_still_to_play_is_dropped(how: str) -> None:
    state = last_round()
    events, state = go_out(state, 2, how)
    assert len(events) == 1 and state.final_turns_left == 2
    order, state = finish(state)
    assert order == [1, 0] and state.end_reason == "final_round"


@pytest.mark.parametrize("how", HOW)
def test_the_seat_that_started_the_last_round_goes_out_before_its_final_turn(how: str) -> None:
    state = last_round()
    _, state = go_out(state, 0, how)
    assert state.final_turns_left == 2
    order, state = finish(state)
    assert order == [1, 2] and state.end_reason == "final_round"
    result = GAME.result(state)
    assert result is not None and 0 not in result["winners"]


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_by_the_seat_playing_its_final_turn(how: str) -> None:
    state = last_round()
    events, state = go_out(state, 1, how)
    assert events[1:] == [TurnEnded(seat=1)]
    assert state.turn == 2 and state.final_turns_left == 2
    order, state = finish(state)
    assert order == [2, 0] and state.end_reason == "final_round"


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_by_the_seat_playing_its_final_turn_between_two_draws(how: str) -> None:
    state = last_round()
    _, state = act(state, 1, DECK)
    events, state = go_out(state, 1, how)
    assert events[1:] == [TurnEnded(seat=1)]
    order, state = finish(state)
    assert order == [2, 0]


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_by_a_seat_that_already_played_its_final_turn(how: str) -> None:
    state = last_round()
    _, state = play_turn(state)  # seat 1's final turn
    assert state.final_turns_left == 2
    events, state = go_out(state, 1, how)
    assert len(events) == 1 and state.final_turns_left == 2
    order, state = finish(state)
    assert order == [2, 0] and state.end_reason == "final_round"
    standings = GAME.standings(state)
    assert standings is not None and standings[1].rank == 3


@pytest.mark.parametrize("how", HOW)
def test_a_forfeit_of_the_very_last_final_turn_ends_the_game(how: str) -> None:
    state = last_round()
    _, state = play_turn(state)
    _, state = play_turn(state)
    assert state.turn == 0 and state.final_turns_left == 1
    events, state = go_out(state, 0, how)
    assert types(events)[1:] == ["turn_ended", "game_ended"]
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "final_round" and 0 not in end.winners


@pytest.mark.parametrize("how", HOW)
def test_the_last_round_gives_a_final_turn_only_to_seats_still_in(how: str) -> None:
    state = crafted(4, hands=[("black", "black"), (), (), ()], cars=[3, 20, 20, 20])
    _, state = go_out(state, 2, how)
    events, state = act(state, 0, black())
    assert events[-1] == LastRoundStarted(seat=0, cars=2) and state.final_turns_left == 3
    order, state = finish(state)
    assert order == [1, 3, 0] and state.end_reason == "final_round"


@pytest.mark.parametrize("how", HOW)
def test_in_the_last_round_the_last_seat_in_still_wins_by_forfeit(how: str) -> None:
    state = last_round()
    _, state = go_out(state, 2, "resign")
    events, state = go_out(state, 0, how)
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "forfeit" and end.winners == (1,)


# --- guards ------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_a_seat_already_out_cannot_resign_or_time_out(how: str) -> None:
    _, state = go_out(crafted(3), 1, how)
    for attempt in (lambda: GAME.decide(state, 1, Resign()), lambda: GAME.time_out(state, [1])):
        with pytest.raises(IllegalAction) as refused:
            attempt()
        assert refused.value.code == "already_out"


def test_a_seat_that_is_not_in_the_game_cannot_time_out() -> None:
    state = crafted(3)
    for seat in (3, -1):
        with pytest.raises(NotYourTurn):
            GAME.time_out(state, [seat])
        with pytest.raises(NotYourTurn):
            GAME.decide(state, seat, Resign())


def test_after_the_end_nothing_more_goes_out_and_nothing_is_cancelled() -> None:
    state = crafted(2)
    _, state = go_out(state, 1, "resign")
    assert GAME.is_over(state)
    for attempt in (
        lambda: GAME.decide(state, 0, Resign()),
        lambda: GAME.decide(state, 1, Resign()),
        lambda: GAME.time_out(state, [0]),
        lambda: GAME.cancel(state),
    ):
        with pytest.raises(GameFinished):
            attempt()
    assert GAME.sendable(state, 0) == [] and GAME.sendable(state, 1) == []


def test_resign_is_sendable_by_every_seat_in_at_any_time() -> None:
    _, state = new_game(3)
    for seat in range(3):  # in setup
        assert GAME.sendable(state, seat)[-1] == Resign()
    state = crafted(3)
    assert GAME.sendable(state, 0)[-1] == Resign() and len(GAME.sendable(state, 0)) > 1
    assert GAME.sendable(state, 1) == [Resign()] and GAME.sendable(state, 2) == [Resign()]


def test_the_resign_event_opens_a_resign_move_a_timeout_none() -> None:
    assert GAME.action_of(SeatResigned(2)) == (2, Resign())
    assert GAME.action_of(SeatTimedOut(2)) is None
    assert GAME.action_of(GameCancelled()) is None
    assert GAME.parse_action({"type": "resign"}) == Resign()


# --- cancel ------------------------------------------------------------------


def cancelled(state: TtrState) -> TtrState:
    events = GAME.cancel(state)
    assert events == [GameCancelled()]
    return replay(GAME, events, state)


@pytest.mark.parametrize("when", ["setup", "playing", "last_round"])
def test_a_cancelled_game_is_over_without_a_result(when: str) -> None:
    state = {"setup": lambda: new_game(3)[1], "playing": lambda: crafted(3), "last_round": last_round}[when]()
    assert GAME.status(state) == when
    _, state = go_out(state, 2, "time_out")
    state = cancelled(state)
    assert GAME.status(state) == "cancelled" and GAME.is_over(state)
    assert GAME.result(state) is None and GAME.standings(state) is None
    assert GAME.active_seats(state) == ()
    assert GAME.seat_standings(state) == ("in", "in", "timed_out")
    for seat in range(3):
        assert GAME.sendable(state, seat) == [] and GAME.legal_actions(state, seat) == []
    for viewer in (None, 0, 1, 2):
        view = GAME.view(state, viewer)
        assert view["status"] == "cancelled" and view["result"] is None
        assert [p["standing"] for p in view["players"]] == ["in", "in", "timed_out"]
    with pytest.raises(GameFinished):
        GAME.cancel(state)
    with pytest.raises(GameFinished):
        GAME.decide(state, 0, Resign())
    with pytest.raises(GameFinished):
        GAME.time_out(state, [0])


def test_a_finished_game_cannot_be_cancelled() -> None:
    _, state = finish(last_round())
    with pytest.raises(GameFinished):
        GAME.cancel(state)


def test_views_show_each_seats_standing() -> None:
    state = crafted(3)
    _, state = go_out(state, 1, "resign")
    _, state = go_out(state, 2, "time_out")
    view = GAME.view(state, 0)
    assert [p["standing"] for p in view["players"]] == ["in", "resigned", "timed_out"]
    assert view["status"] == "finished" and view["result"]["reason"] == "forfeit"


def test_keep_tickets_from_a_seat_out_is_refused() -> None:
    _, state = new_game(3)
    pending = state.players[0].pending
    # seat 0 goes out by timing out: its tickets are kept, nothing is left to choose
    _, state = go_out(state, 0, "time_out")
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 0, KeepTickets(pending[:1]))
