"""Transport cards and hands.

A card is its colour name; ``ferry`` is the multicoloured joker.  A hand is a
tuple of counts, one per entry of :data:`CARD_TYPES` (so it is hashable,
cheap to copy and independent of any dict ordering).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

COLOURS: tuple[str, ...] = ("blue", "green", "black", "purple", "red", "orange")
FERRY = "ferry"
CARD_TYPES: tuple[str, ...] = (*COLOURS, FERRY)
CARD_INDEX: Mapping[str, int] = {name: i for i, name in enumerate(CARD_TYPES)}
FERRY_INDEX = CARD_INDEX[FERRY]

Hand = tuple[int, ...]
EMPTY_HAND: Hand = (0,) * len(CARD_TYPES)


def hand_of(cards: Iterable[str]) -> Hand:
    """The hand holding exactly ``cards``."""
    counts = [0] * len(CARD_TYPES)
    for card in cards:
        counts[CARD_INDEX[card]] += 1
    return tuple(counts)


def add_cards(hand: Hand, cards: Iterable[str]) -> Hand:
    """``hand`` plus ``cards``."""
    counts = list(hand)
    for card in cards:
        counts[CARD_INDEX[card]] += 1
    return tuple(counts)


def remove_counts(hand: Hand, payment: Mapping[str, int]) -> Hand:
    """``hand`` minus ``payment`` (colour -> count); the caller checked it is held."""
    counts = list(hand)
    for colour, count in payment.items():
        counts[CARD_INDEX[colour]] -= count
    return tuple(counts)


def holds(hand: Hand, payment: Mapping[str, int]) -> bool:
    """Whether ``hand`` holds every card of ``payment``."""
    return all(hand[CARD_INDEX[colour]] >= count for colour, count in payment.items())


def hand_size(hand: Hand) -> int:
    """Number of cards in ``hand``."""
    return sum(hand)


def hand_dict(hand: Hand) -> dict[str, int]:
    """The hand as ``{colour: count}`` for every card type (zeros included)."""
    return dict(zip(CARD_TYPES, hand, strict=True))


def expand(payment: Mapping[str, int]) -> tuple[str, ...]:
    """The cards of ``payment`` as a flat tuple in canonical colour order.

    Canonical order matters: stored JSON objects (e.g. PostgreSQL ``jsonb``)
    do not keep key order, and the discard pile order feeds a shuffle.
    """
    return tuple(card for card in CARD_TYPES for _ in range(payment.get(card, 0)))


def count_ferries(cards: Iterable[str | None]) -> int:
    """How many of ``cards`` are ferries."""
    return sum(1 for card in cards if card == FERRY)
