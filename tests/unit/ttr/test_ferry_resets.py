"""The three-ferry reset has no limit (rule T15, ``ttr-sf/4``).

"Hvis der på noget tidspunkt ligger 3 færgekort blandt de 5 åbne kort, skal alle 5 kort lægges i
bunken med kasserede kort, og der skal vendes 5 nye kort." (Danish rulebook, ``shared/seeds/001``: if
at any time 3 ferry cards lie among the 5 face-up cards, all 5 are discarded and 5 new ones turned up.)
Resets go on for as long as the cards outside the players' hands could still make a row with fewer
than three ferries; only when they cannot is the row left as it is. Games created under ``ttr-sf/1``
to ``/3`` keep the cap they were played with (``len(deck) + len(discard)`` resets), so their records
still verify.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core import Decision
from domain.rng import Rng
from domain.ttr import GAME
from domain.ttr.actions import DrawCard
from domain.ttr.board import load_board
from domain.ttr.cards import count_ferries
from domain.ttr.evolve import evolve
from domain.ttr.state import RULES_VERSIONS, TtrState
from domain.ttr.supply import MAX_RESETS, check_ferries, reset_can_help

from .helpers import act, card_total, crafted, remainder, types

BOARD = load_board()
#: the supply of the old cap's test: after the refill, three other cards among ten
ROW = ("ferry", "ferry", "blue", "green", "black")
DECK = ("ferry", "ferry", "ferry", "ferry", "ferry", "red")


def _stuck_row_state(rules: int) -> TtrState:
    state = crafted(face_up=ROW, deck=DECK, hands=[(), remainder(ROW, DECK)])
    return replace(state, rules=rules)


def _legal_row_possible(state: TtrState) -> bool:
    return reset_can_help(state)


def test_resets_go_on_past_the_old_cap_while_a_reset_can_still_give_a_legal_row() -> None:
    # taking the blue card turns up a ferry: three ferries, and ten cards outside the hands
    # (seven ferries, green, black, red): a row of green, black, red and two ferries is legal
    state = _stuck_row_state(rules=len(RULES_VERSIONS))
    events, after = act(state, 0, DrawCard("face_up", 2))
    resets = types(events).count("face_up_reset")
    assert resets > 5, "the old cap (5 cards in deck and discard) is not the limit any more"
    assert count_ferries(after.face_up) < 3, after.face_up
    assert card_total(after) == 44 and after.phase == "second_draw"
    # the deck is rebuilt once the resets are over, as after any refill
    assert after.deck or not after.discard


def test_under_the_earlier_rules_the_cap_they_were_played_with_still_applies() -> None:
    for rules in (1, 2, 3):
        state = _stuck_row_state(rules=rules)
        events, after = act(state, 0, DrawCard("face_up", 2))
        assert types(events).count("face_up_reset") == 5, rules
        assert count_ferries(after.face_up) >= 3 and card_total(after) == 44


def test_when_no_legal_row_can_be_made_the_row_is_left_as_it_is() -> None:
    # outside the hands: the row (three ferries, blue, green) and two ferries in the deck:
    # every row of five from these seven cards holds at least three ferries
    row = ("ferry", "ferry", "ferry", "blue", "green")
    state = crafted(face_up=row, deck=("ferry", "ferry"), hands=[(), remainder(row, ("ferry", "ferry"))])
    assert not reset_can_help(state)
    decision = Decision(state, evolve)
    check_ferries(decision)
    assert decision.events == [] and decision.state.face_up == row
    # the blue and green cards may still be taken; a draw that takes one leaves the row as it is
    events, after = act(state, 0, DrawCard("face_up", 3))
    assert "face_up_reset" not in types(events) and count_ferries(after.face_up) >= 3


def test_a_row_that_keeps_coming_back_is_mixed_with_the_discards_again() -> None:
    # Ten cards outside the hands, five of them in the deck and none discarded: with the deck rebuilt
    # from the discards alone right after each refill, the same two halves came back turn about (a
    # reset that could never help); the discarded row now goes back into the shuffle
    row = ("ferry", "ferry", "ferry", "red", "ferry")
    deck = ("ferry", "ferry", "ferry", "blue", "green")
    for seed in range(40):
        state = replace(crafted(face_up=row, deck=deck, hands=[(), remainder(row, deck)]),
                        rng=Rng.from_seed(f"halves-{seed}", "test"))
        decision = Decision(state, evolve)
        check_ferries(decision)
        assert count_ferries(decision.state.face_up) < 3, seed
        assert sum(1 for e in decision.events if e.TYPE == "face_up_reset") < MAX_RESETS


@st.composite
def supplies(draw: st.DrawFn) -> TtrState:
    """A playing state with the 44 cards dealt out at random between the face-up row (often with three
    ferries or more), the deck, the discard pile and the two hands (often most of the cards, as late in
    a game), and a random generator."""
    ferries_up = draw(st.integers(0, 5))
    ferries = ["ferry"] * 8
    others = [c for c in BOARD.full_deck() if c != "ferry"]
    row = draw(st.permutations(ferries[:ferries_up] + others[: 5 - ferries_up]))
    rest = draw(st.permutations(ferries[ferries_up:] + others[5 - ferries_up :]))
    outside = draw(st.one_of(st.integers(0, 12), st.integers(0, len(rest))))  # small supplies are where rows stick
    deck_size = draw(st.integers(0, outside))
    discard_size = outside - deck_size
    deck, discard = rest[:deck_size], rest[deck_size : deck_size + discard_size]
    if not deck:  # the deck is never left empty while discards remain
        deck, discard = discard, []
    hands = rest[deck_size + discard_size :]
    split = draw(st.integers(0, len(hands)))
    state = crafted(face_up=row, deck=deck, discard=discard, hands=[hands[:split], hands[split:]])
    return replace(state, rng=Rng.from_seed(draw(st.text(max_size=8)), "supply"))


@settings(max_examples=150, deadline=None)
@given(supplies(), st.data())
def test_after_any_draw_no_row_of_three_ferries_stays_while_a_legal_row_is_possible(
    state: TtrState, data: st.DataObject
) -> None:
    draws = [a for a in GAME.legal_actions(state, 0) if isinstance(a, DrawCard)]
    if not draws:
        return
    events, after = act(state, 0, data.draw(st.sampled_from(draws)))
    assert card_total(after) == 44
    assert count_ferries(after.face_up) < 3 or not _legal_row_possible(after), (types(events), after.face_up)
    assert after.deck or not after.discard
