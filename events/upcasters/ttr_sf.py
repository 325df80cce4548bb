"""Upcasters of Ticket to Ride: San Francisco (``ttr-sf``) events."""

from __future__ import annotations

from collections import Counter

from events.upcasting import JSON, Payload, upcaster


@upcaster("ttr-sf", "route_claimed", 1)
def route_claimed_v1_to_v2(payload: Payload) -> dict[str, JSON]:
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
