"""Lifts of ``ttr-sf`` event payloads stored under older schema versions
(pure functions of the payload, declared in :data:`UPCASTERS`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from domain.core import JSON, Upcast
from domain.turnends import WITHOUT_TURN_END, without_turn_end


def route_claimed_v1_to_v2(payload: Mapping[str, JSON]) -> dict[str, JSON]:
    """``route_claimed`` v1 -> v2: ``cards`` from a flat list of colour names
    (``["red", "red", "ferry"]``) to colour -> count (``{"ferry": 1, "red": 2}``).

    Raises ``ValueError`` if ``cards`` is not a list of strings."""
    cards = payload["cards"]
    if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
        raise ValueError(f"route_claimed v1 'cards' must be a list of colour names, got {cards!r}")
    counts = Counter(cards)
    upgraded = dict(payload)
    upgraded["cards"] = {colour: counts[colour] for colour in sorted(counts)}
    return upgraded


UPCASTERS: tuple[Upcast, ...] = (
    Upcast("route_claimed", 1, route_claimed_v1_to_v2, (("cards", tuple[str, ...]),)),
    # the carriers of a turn's end (``ttr-sf/3``) gained ``ends_turn``
    Upcast("route_claimed", 2, without_turn_end, WITHOUT_TURN_END),
    Upcast("card_drawn", 1, without_turn_end, WITHOUT_TURN_END),
    Upcast("tickets_kept", 1, without_turn_end, WITHOUT_TURN_END),
    Upcast("face_up_refilled", 1, without_turn_end, WITHOUT_TURN_END),
    Upcast("deck_rebuilt", 1, without_turn_end, WITHOUT_TURN_END),
)
