"""Setup choices: keeping dealt tickets and placing the set-aside souvenir
stacks, in the right order, before any turn action."""

from __future__ import annotations

import pytest

from domain.core import Action
from domain.errors import DomainError, IllegalAction, NotYourTurn
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets, PlaceSouvenirStack
from domain.ttr.events import PlayStarted, SouvenirStackPlaced, TicketsKept
from domain.ttr.state import TtrState

from .helpers import act, new_game, types


def _refused(state: TtrState, seat: int, action: Action) -> DomainError:
    with pytest.raises(DomainError) as info:
        GAME.decide(state, seat, action)
    return info.value


def test_active_seats_during_setup_are_ticket_choosers_and_the_due_placer() -> None:
    _, state = new_game(4, start_seat=1)
    assert GAME.active_seats(state) == (0, 1, 2, 3)
    assert state.next_placer == 0  # last in turn order 1, 2, 3, 0
    for seat in (1, 2, 3):
        pending = state.players[seat].pending
        _, state = act(state, seat, KeepTickets(pending))
    assert GAME.active_seats(state) == (0,)
    _, state = act(state, 0, KeepTickets(state.players[0].pending[:1]))
    assert GAME.active_seats(state) == (0,)  # still due to place a stack
    assert GAME.status(state) == "setup"


@pytest.mark.parametrize(
    "action", [DrawCard("deck"), DrawTickets(), ClaimRoute("marina--fort-mason", (("black", 1),))]
)
def test_no_turn_action_before_setup_is_complete(action: Action) -> None:
    _, state = new_game(2)
    for seat in (0, 1):
        error = _refused(state, seat, action)
        assert isinstance(error, IllegalAction) and error.code == "setup_not_finished"


@pytest.mark.parametrize(
    "action", [DrawCard("deck"), DrawTickets(), ClaimRoute("marina--fort-mason", (("black", 1),))]
)
def test_a_turn_action_in_setup_from_a_seat_with_no_choice_left_is_not_its_turn(action: Action) -> None:
    """Issue 27: the contract's 409 not_your_turn is for a seat outside
    active_seats; setup_not_finished (422) only for a seat still choosing."""
    _, state = new_game(3)
    done = next(seat for seat in range(3) if seat != state.next_placer)
    _, state = act(state, done, KeepTickets(state.players[done].pending))
    assert done not in GAME.active_seats(state) and GAME.status(state) == "setup"
    assert isinstance(_refused(state, done, action), NotYourTurn)
    still = next(seat for seat in GAME.active_seats(state))
    error = _refused(state, still, action)
    assert isinstance(error, IllegalAction) and error.code == "setup_not_finished"


def test_keep_one_or_two_dealt_tickets_in_any_order_between_seats() -> None:
    _, state = new_game(3)
    t1 = state.players[1].pending
    t0 = state.players[0].pending
    tickets_left = len(state.ticket_deck)
    events, state = act(state, 1, KeepTickets((t1[1],)))
    assert events == [TicketsKept(seat=1, kept=(t1[1],), returned=(t1[0],), kept_count=1, returned_count=1)]
    assert state.players[1].tickets == (t1[1],) and state.players[1].pending == ()
    assert (
        state.ticket_deck[-1] == t1[0] and len(state.ticket_deck) == tickets_left + 1
    )  # returned to the bottom
    events, state = act(state, 0, KeepTickets((t0[1], t0[0])))  # any order: stored in dealt order
    assert events[0] == TicketsKept(seat=0, kept=t0, returned=(), kept_count=2, returned_count=0)


def test_keeping_no_ticket_or_a_foreign_ticket_is_refused() -> None:
    _, state = new_game(2)
    pending = state.players[0].pending
    other = state.players[1].pending[0]
    cases = [
        (KeepTickets(()), "must_keep_one_ticket"),
        (KeepTickets((other,)), "not_pending_ticket"),
        (KeepTickets((pending[0], pending[0])), "duplicate_ticket"),
        (KeepTickets(("T99",)), "not_pending_ticket"),
    ]
    for action, code in cases:
        error = _refused(state, 0, action)
        assert isinstance(error, IllegalAction) and error.code == code


def test_a_seat_that_has_chosen_cannot_choose_again() -> None:
    _, state = new_game(3)
    _, state = act(state, 0, KeepTickets(state.players[0].pending))
    assert isinstance(_refused(state, 0, KeepTickets(("T01",))), NotYourTurn)


def test_three_players_last_then_second_to_last_place_the_set_aside_stacks() -> None:
    _, state = new_game(3, start_seat=0)
    first_symbol, second_symbol = state.set_aside
    # seat 1 (second to last) may not go first; seat 2 (last) places first
    assert isinstance(_refused(state, 1, PlaceSouvenirStack(first_symbol, "marina")), NotYourTurn)
    events, state = act(state, 2, PlaceSouvenirStack(second_symbol, "marina"))  # any of the two
    assert events == [SouvenirStackPlaced(seat=2, symbol=second_symbol, location="marina", count=2)]
    assert state.set_aside == (first_symbol,) and state.next_placer == 1
    assert isinstance(_refused(state, 2, PlaceSouvenirStack(first_symbol, "presidio")), NotYourTurn)
    error = _refused(state, 1, PlaceSouvenirStack(second_symbol, "presidio"))
    assert isinstance(error, IllegalAction) and error.code == "wrong_symbol"
    error = _refused(state, 1, PlaceSouvenirStack(first_symbol, "marina"))
    assert isinstance(error, IllegalAction) and error.code == "location_has_stack"
    error = _refused(state, 1, PlaceSouvenirStack(first_symbol, "sunset"))  # a fixed stack
    assert isinstance(error, IllegalAction) and error.code == "location_has_stack"
    error = _refused(state, 1, PlaceSouvenirStack(first_symbol, "atlantis"))
    assert isinstance(error, IllegalAction) and error.code == "unknown_location"
    _, state = act(state, 1, PlaceSouvenirStack(first_symbol, "presidio"))
    assert state.stack_at("presidio") is not None and state.stack_at("presidio").count == 2  # type: ignore[union-attr]
    error = _refused(state, 1, PlaceSouvenirStack(first_symbol, "castro"))
    assert isinstance(error, IllegalAction) and error.code == "souvenirs_placed"


def test_four_players_stacks_of_three() -> None:
    _, state = new_game(4, start_seat=0)
    assert state.placers == (3, 2)
    events, state = act(state, 3, PlaceSouvenirStack(state.set_aside[0], "mission"))
    assert isinstance(events[0], SouvenirStackPlaced) and events[0].count == 3


def test_two_players_the_second_player_places_both_as_single_tokens() -> None:
    _, state = new_game(2, start_seat=1)
    assert state.placers == (0, 0)
    a, b = state.set_aside
    assert isinstance(_refused(state, 1, PlaceSouvenirStack(a, "marina")), NotYourTurn)
    _, state = act(state, 0, PlaceSouvenirStack(b, "marina"))
    error = _refused(state, 0, PlaceSouvenirStack(a, "marina"))
    assert isinstance(error, IllegalAction) and error.code == "location_has_stack"
    _, state = act(state, 0, PlaceSouvenirStack(a, "castro"))
    counts = {s.location: s.count for s in state.stacks}
    assert counts["marina"] == counts["castro"] == 1
    assert sorted(counts.values()) == [1, 1, 2, 2, 2, 2, 2]


def test_the_last_setup_choice_starts_play_with_the_start_seat() -> None:
    _, state = new_game(3, start_seat=2)
    choices: list[tuple[int, Action]] = [
        (1, PlaceSouvenirStack(state.set_aside[0], "marina")),
        (0, PlaceSouvenirStack(state.set_aside[1], "castro")),
        (2, KeepTickets(state.players[2].pending)),
        (1, KeepTickets(state.players[1].pending)),
    ]
    for seat, action in choices:
        events, state = act(state, seat, action)
        assert "play_started" not in types(events)
    events, state = act(state, 0, KeepTickets(state.players[0].pending))
    assert events[-1] == PlayStarted(seat=2)
    assert GAME.status(state) == "playing" and GAME.active_seats(state) == (2,)
    error = _refused(state, 0, PlaceSouvenirStack("key", "presidio"))
    assert isinstance(error, IllegalAction) and error.code == "not_in_setup"
    assert isinstance(_refused(state, 0, DrawCard("deck")), NotYourTurn)
