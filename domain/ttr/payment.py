"""Paying for a route: checking a payment and listing every possible one.

A route of length L with f ferry symbols takes L cards: at least f ferries,
and for the other spaces cards of the route's colour (a gray route: any ONE
colour) or more ferries, which are jokers.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.ttr.board import GRAY, Route
from domain.ttr.cards import CARD_INDEX, COLOURS, FERRY, FERRY_INDEX, Hand


def payment_error(route: Route, payment: Mapping[str, int]) -> str | None:
    """Why ``payment`` does not pay for ``route`` (None if it does)."""
    total = sum(payment.values())
    if total != route.length:
        return f"route {route.id} has {route.length} spaces: pay exactly {route.length} cards, not {total}"
    if payment.get(FERRY, 0) < route.ferries:
        return f"ferry route {route.id} needs one ferry card per ferry symbol ({route.ferries})"
    colours = [colour for colour, count in payment.items() if colour != FERRY and count > 0]
    if len(colours) > 1:
        return "a route is paid with cards of one colour (ferries may stand in for any colour)"
    if colours and route.color != GRAY and colours[0] != route.color:
        return f"the {route.color} route {route.id} takes {route.color} cards or ferries, not {colours[0]}"
    return None


def payments(route: Route, hand: Hand) -> list[dict[str, int]]:
    """Every distinct payment for ``route`` that ``hand`` can make (colour x ferries used)."""
    have_ferries = hand[FERRY_INDEX]
    if have_ferries < route.ferries:
        return []
    out: list[dict[str, int]] = []
    colours = COLOURS if route.color == GRAY else (route.color,)
    top = min(route.length - 1, have_ferries)
    for colour in colours:
        have = hand[CARD_INDEX[colour]]
        for ferries in range(route.ferries, top + 1):
            need = route.length - ferries
            if have >= need:
                out.append({colour: need, FERRY: ferries} if ferries else {colour: need})
    if have_ferries >= route.length:
        out.append({FERRY: route.length})
    return out


def can_pay(route: Route, hand: Hand) -> bool:
    """Whether ``hand`` can pay for ``route`` at all."""
    have_ferries = hand[FERRY_INDEX]
    if have_ferries < route.ferries:
        return False
    if have_ferries >= route.length:
        return True
    colours = COLOURS if route.color == GRAY else (route.color,)
    return any(hand[CARD_INDEX[c]] + have_ferries >= route.length for c in colours)
