"""The card supply during a decision: rebuilding the deck, refilling the
face-up row and the three-ferry reset.

Rulings applied here:

* the deck is rebuilt (seeded shuffle of the discard pile) as soon as it is
  empty and the discard pile is not, so "deck empty" implies "no card left";
* with deck and discard pile both empty, empty face-up slots stay empty;
  they are refilled when cards come back (e.g. after a claim);
* whenever 3+ face-up cards are ferries, the row is discarded and refilled
  (the rulebook sets no limit) for as long as deck, discard pile and row
  together could still make a row with fewer than 3 ferries, and not at all
  when they cannot: the row is then left as it is (``ttr-sf/4``).  During
  the resets a deck emptied by the new row is rebuilt only when the next
  card is needed, so the discarded rows go back into the shuffle (rebuilt at
  once, a supply of ten cards alternated between the same two rows).  The
  loop is bounded by :data:`MAX_RESETS` only so that it surely ends: a reset
  that can help gives a legal row about once in 17 in the worst supply, so
  that many failures in a row have a chance below 1e-20
  (``docs/rules/versions.md``).  Games created under ``ttr-sf/1`` to ``/3``
  (state ``rules`` 1-3) stop after ``len(deck) + len(discard)`` resets, the
  deck rebuilt after each, as those rules did, so their records verify;
* a row left with 3+ ferries that way is checked again after every change to
  the row, the deck or the discard pile (e.g. cards paid for a claim come
  back), not only when a card is turned up.  Games created under
  ``ttr-sf/1`` (state ``rules`` 1) re-check only when a card was turned up,
  as those rules did, so their records still verify.
"""

from __future__ import annotations

from domain.core import Decision
from domain.ttr.cards import FERRY, count_ferries
from domain.ttr.events import DeckRebuilt, FaceUpRefilled, FaceUpReset
from domain.ttr.state import RESETS_WHILE_THEY_CAN_HELP, ROW_SIZE, TtrState

#: a row with this many ferries (or more) is reset
FERRY_RESET_AT = 3
#: the most resets in a row (``ttr-sf/4``): never reached while a reset can help (see the module doc)
MAX_RESETS = 1000


def rebuild_if_empty(decision: Decision[TtrState]) -> None:
    """Shuffle the discard pile into a new deck if the deck is empty."""
    state = decision.state
    if state.deck or not state.discard:
        return
    deck, rng = state.rng.shuffle(state.discard)
    decision.emit(DeckRebuilt(deck=deck, count=len(deck), rng_counter=rng.counter))


def fill_row(decision: Decision[TtrState], rebuild_after: bool = True) -> bool:
    """Turn up a card into every empty face-up slot while cards remain
    (rebuilding the deck when it runs out, and, with ``rebuild_after``, once
    more if it is empty at the end).

    Returns whether any card was turned up."""
    turned = False
    for slot in range(ROW_SIZE):
        if decision.state.face_up[slot] is not None:
            continue
        rebuild_if_empty(decision)
        if not decision.state.deck:
            break
        decision.emit(FaceUpRefilled(slot=slot, card=decision.state.deck[0]))
        turned = True
    if rebuild_after:
        rebuild_if_empty(decision)
    return turned


def reset_can_help(state: TtrState) -> bool:
    """Whether deck, discard pile and row together could form a row with
    fewer than :data:`FERRY_RESET_AT` ferries (else a reset is pointless)."""
    row = [card for card in state.face_up if card is not None]
    pool = len(state.deck) + len(state.discard) + len(row)
    ferries = count_ferries(state.deck) + count_ferries(state.discard) + count_ferries(row)
    return pool - ferries >= min(ROW_SIZE, pool) - (FERRY_RESET_AT - 1)


def check_ferries(decision: Decision[TtrState]) -> None:
    """Reset the face-up row while it shows 3+ ferries and a reset can help (see the module doc)."""
    if decision.state.rules < RESETS_WHILE_THEY_CAN_HELP:
        _check_ferries_capped(decision)
        return
    resets = 0
    while (
        resets < MAX_RESETS
        and count_ferries(decision.state.face_up) >= FERRY_RESET_AT
        and reset_can_help(decision.state)
    ):
        _reset(decision, rebuild_after=False)  # a deck run out is rebuilt with this row in the discards
        resets += 1
    rebuild_if_empty(decision)


def _reset(decision: Decision[TtrState], rebuild_after: bool) -> None:
    row = tuple(card for card in decision.state.face_up if card is not None)
    decision.emit(FaceUpReset(discarded=row))
    fill_row(decision, rebuild_after)


def _check_ferries_capped(decision: Decision[TtrState]) -> None:
    """``ttr-sf/1`` to ``/3``: at most ``len(deck) + len(discard)`` resets, the deck rebuilt after each."""
    state = decision.state
    limit = len(state.deck) + len(state.discard)
    resets = 0
    while (
        resets < limit
        and count_ferries(decision.state.face_up) >= FERRY_RESET_AT
        and reset_can_help(decision.state)
    ):
        _reset(decision, rebuild_after=True)
        resets += 1


def restock(decision: Decision[TtrState]) -> None:
    """Refill the row (and rebuild the deck) after cards moved; reset on 3 ferries."""
    if fill_row(decision) or decision.state.rules >= 2:
        check_ferries(decision)


def can_take_card(state: TtrState, second: bool) -> bool:
    """Whether any card can be drawn now (the second card of a draw may not
    be a face-up ferry)."""
    if state.deck:
        return True
    if second:
        return any(card is not None and card != FERRY for card in state.face_up)
    return any(card is not None for card in state.face_up)
