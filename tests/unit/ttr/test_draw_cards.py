"""Drawing transport cards: blind and face-up draws, ferries, refills, the
three-ferry reset, deck rebuilds and the empty-supply rulings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.core import Action
from domain.errors import DomainError, IllegalAction, NotYourTurn
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets
from domain.ttr.events import CardDrawn, DeckRebuilt, FaceUpRefilled, FaceUpReset
from domain.ttr.state import TtrState

from .helpers import act, card_total, crafted, remainder, types

DECK = DrawCard("deck")


def up(slot: int) -> DrawCard:
    """Take face-up ``slot``."""
    return DrawCard("face_up", slot)


def refused(state: TtrState, seat: int, action: Action, code: str) -> None:
    """Assert ``action`` is refused with ``code`` (and the state is untouched)."""
    before = state
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, seat, action)
    assert info.value.code == code, info.value
    assert state == before


def test_two_blind_draws_end_the_turn() -> None:
    state = crafted(
        deck=("red", "ferry", *remainder(("blue", "green", "black", "purple", "red"), ("red", "ferry")))
    )
    events, state = act(state, 0, DECK)
    assert events == [CardDrawn(seat=0, source="deck", slot=None, card="red")]
    assert state.phase == "second_draw" and GAME.active_seats(state) == (0,)
    events, state = act(state, 0, DECK)  # a blind ferry is an ordinary draw
    assert events == [CardDrawn(seat=0, source="deck", slot=None, card="ferry", ends_turn=True)]
    assert state.players[0].hand[-1] == 1 and state.players[0].hand_count == 2
    assert state.turn == 1 and state.phase == "turn_start"


def test_a_blind_ferry_as_first_card_is_an_ordinary_draw() -> None:
    state = crafted(deck=("ferry", *remainder(("blue", "green", "black", "purple", "red"), ("ferry",))))
    events, state = act(state, 0, DECK)
    assert types(events) == ["card_drawn"] and state.phase == "second_draw"


def test_a_face_up_card_is_replaced_at_once_from_the_deck() -> None:
    state = crafted()
    top = state.deck[0]
    events, state = act(state, 0, up(3))
    assert events == [
        CardDrawn(seat=0, source="face_up", slot=3, card="purple"),
        FaceUpRefilled(slot=3, card=top),
    ]
    assert state.face_up[3] == top and state.phase == "second_draw"
    events, state = act(state, 0, up(0))
    assert types(events) == ["card_drawn", "face_up_refilled+turn_ended"]
    assert state.players[0].hand_count == 2 and card_total(state) == 44


def test_a_face_up_ferry_as_first_card_is_the_whole_draw() -> None:
    row = ("blue", "green", "ferry", "purple", "red")
    state = crafted(face_up=row)
    events, state = act(state, 0, up(2))
    assert types(events) == ["card_drawn", "face_up_refilled+turn_ended"]
    assert state.turn == 1 and state.players[0].hand_count == 1


def test_a_face_up_ferry_may_not_be_the_second_card() -> None:
    row = ("blue", "green", "ferry", "purple", "red")
    _, state = act(crafted(face_up=row), 0, up(0))
    assert state.face_up[2] == "ferry"
    refused(state, 0, up(2), "ferry_second_draw")
    assert up(2) not in GAME.legal_actions(state, 0)
    assert up(1) in GAME.legal_actions(state, 0)


def test_only_a_draw_may_follow_the_first_card() -> None:
    _, state = act(crafted(hands=[("black",), ()]), 0, DECK)
    refused(state, 0, ClaimRoute("marina--fort-mason", (("black", 1),)), "draw_in_progress")
    refused(state, 0, DrawTickets(), "draw_in_progress")
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 1, DECK)


def test_slot_errors() -> None:
    row = ("blue", None, "green", "red", "black")
    state = crafted(face_up=row, deck=(), hands=[remainder(row), ()])
    refused(state, 0, up(5), "unknown_slot")
    refused(state, 0, up(-1), "unknown_slot")
    refused(state, 0, up(1), "empty_slot")
    refused(state, 0, DECK, "deck_empty")


def test_a_refill_showing_three_ferries_resets_the_row() -> None:
    row = ("ferry", "ferry", "red", "blue", "green")
    deck = (
        "ferry",
        "black",
        "black",
        "orange",
        "orange",
        "purple",
        *remainder(row, ("ferry", "black", "black", "orange", "orange", "purple")),
    )
    state = crafted(face_up=row, deck=deck)
    events, state = act(state, 0, up(2))
    assert events[:3] == [
        CardDrawn(seat=0, source="face_up", slot=2, card="red"),
        FaceUpRefilled(slot=2, card="ferry"),
        FaceUpReset(discarded=("ferry", "ferry", "ferry", "blue", "green")),
    ]
    assert events[3:] == [FaceUpRefilled(slot=i, card=c) for i, c in enumerate(deck[1:6])]
    assert state.face_up == deck[1:6] and state.discard == ("ferry", "ferry", "ferry", "blue", "green")
    assert state.phase == "second_draw" and card_total(state) == 44


def test_no_reset_when_deck_and_discards_cannot_make_a_better_row() -> None:
    row = ("ferry", "ferry", "red", "blue", "green")
    state = crafted(face_up=row, deck=("ferry",), hands=[(), remainder(row, ("ferry",))])
    events, state = act(state, 0, up(2))
    assert types(events) == ["card_drawn", "face_up_refilled"]
    assert state.face_up == ("ferry", "ferry", "ferry", "blue", "green")
    assert state.phase == "second_draw"  # blue and green can still be taken second


def test_the_empty_deck_is_rebuilt_from_the_discards_by_the_seeded_shuffle() -> None:
    row = ("blue", "green", "black", "purple", "red")
    discard = ("orange", "orange", "red", "blue", "ferry", "green")
    deck = ("red",)
    state = crafted(face_up=row, deck=deck, discard=discard, hands=[(), remainder(row, deck, discard)])
    expected, rng = state.rng.shuffle(discard)
    events = GAME.decide(state, 0, DECK)
    assert events == [
        CardDrawn(seat=0, source="deck", slot=None, card="red"),
        DeckRebuilt(deck=expected, count=6, rng_counter=rng.counter),
    ]
    assert GAME.decide(state, 0, DECK) == events  # decide is a pure function
    _, after = act(state, 0, DECK)
    assert after.deck == expected and after.discard == () and after.rng == rng


def test_with_deck_and_discards_empty_the_row_is_not_refilled() -> None:
    row = ("blue", "green", "black", "purple", "red")
    state = crafted(face_up=row, deck=(), hands=[(), remainder(row)])
    events, state = act(state, 0, up(1))
    assert types(events) == ["card_drawn"]
    assert state.face_up == ("blue", None, "black", "purple", "red")
    assert GAME.view(state, None)["face_up"] == ["blue", None, "black", "purple", "red"]
    refused(state, 0, up(1), "empty_slot")


def test_the_turn_ends_after_one_card_when_no_second_card_can_be_taken() -> None:
    row = ("ferry", "ferry", "red", None, None)
    state = crafted(face_up=row, deck=(), hands=[(), remainder(row)])
    events, state = act(state, 0, up(2))
    assert types(events) == ["card_drawn+turn_ended"]
    assert state.turn == 1


def test_drawing_is_illegal_when_no_card_can_be_taken() -> None:
    state = crafted(face_up=(), deck=(), hands=[remainder(), ()])
    refused(state, 0, DECK, "no_card_available")
    refused(state, 0, up(0), "no_card_available")
    assert not [a for a in GAME.legal_actions(state, 0) if isinstance(a, DrawCard)]


def test_only_face_up_ferries_left_may_still_be_the_first_card() -> None:
    row = ("ferry", None, None, None, None)
    state = crafted(face_up=row, deck=(), hands=[remainder(row), ()])
    assert GAME.legal_actions(state, 0)[0] == up(0)
    events, state = act(state, 0, up(0))
    assert types(events) == ["card_drawn+turn_ended"]


def test_cards_paid_for_a_claim_come_back_into_an_empty_supply() -> None:
    row = ("blue", None, None, None, None)
    hand0 = ("red", "red")
    state = crafted(face_up=row, deck=(), hands=[hand0, remainder(row, hand0)])
    events, state = act(state, 0, ClaimRoute("golden-gate-bridge--presidio", (("red", 2),)))
    assert types(events) == [
        "route_claimed",
        "deck_rebuilt",
        "face_up_refilled",
        "face_up_refilled+turn_ended",
    ]
    assert state.face_up == ("blue", "red", "red", None, None)
    assert state.deck == () and state.discard == ()


def test_not_your_turn() -> None:
    state = crafted()
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 1, DECK)
    with pytest.raises(DomainError):
        GAME.decide(state, 7, DECK)


def test_a_stuck_three_ferry_row_is_checked_again_when_paid_cards_come_back() -> None:
    # no reset can help at first (deck: two ferries, no discards): the row stays
    row = ("ferry", "ferry", "ferry", "blue", "green")
    hand0 = ("red", "red")
    rest = remainder(row, hand0, ("ferry", "ferry"))
    state = crafted(face_up=row, deck=("ferry", "ferry"), hands=[hand0, rest])
    claim = ClaimRoute("golden-gate-bridge--presidio", (("red", 2),))
    # the claim's two reds reach the discard pile: now a better row can be made, and it is
    events, after = act(state, 0, claim)
    assert types(events)[:2] == ["route_claimed", "face_up_reset"]
    assert sum(1 for c in after.face_up if c == "ferry") < 3
    assert card_total(after) == 44
    # games made under the first rules re-checked only when a card was turned up
    legacy = replace(state, rules=1)
    events, after = act(legacy, 0, claim)
    assert types(events) == ["route_claimed", "turn_ended"]
    assert after.face_up == row
