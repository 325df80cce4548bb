"""The actions a seat can send, their JSON bodies, and the parser.

Bodies (fixed by the HTTP contract)::

    {"type": "place_souvenir_stack", "symbol": "key", "location": "lombard-street"}
    {"type": "keep_tickets", "tickets": ["T03"]}
    {"type": "draw_card", "source": "deck"}
    {"type": "draw_card", "source": "face_up", "slot": 0}
    {"type": "claim_route", "route": "marina--fort-mason", "cards": {"black": 1}, "souvenir": "key"}
    {"type": "draw_tickets"}

:func:`parse_action` checks shapes only (MalformedAction); whether the rules
allow the action is for :func:`domain.ttr.rules.decide`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.core import JSON, Action, Event
from domain.parsing import check_keys, dispatch, malformed
from domain.ttr.cards import CARD_INDEX, CARD_TYPES
from domain.ttr.events import CardDrawn, RouteClaimed, SouvenirStackPlaced, TicketsDrawn, TicketsKept

SOURCE_DECK = "deck"
SOURCE_FACE_UP = "face_up"


@dataclass(frozen=True)
class PlaceSouvenirStack(Action):
    """Setup: place a set-aside souvenir stack on a location without one."""

    TYPE: ClassVar[str] = "place_souvenir_stack"

    symbol: str
    location: str


@dataclass(frozen=True)
class KeepTickets(Action):
    """Keep these pending tickets (the others are returned)."""

    TYPE: ClassVar[str] = "keep_tickets"

    tickets: tuple[str, ...]


@dataclass(frozen=True)
class DrawCard(Action):
    """Take one transport card: the top of the deck or face-up ``slot``."""

    TYPE: ClassVar[str] = "draw_card"

    source: str
    slot: int | None = None


@dataclass(frozen=True)
class ClaimRoute(Action):
    """Claim ``route`` paying ``cards`` and, when a choice exists, taking ``souvenir``.

    ``cards`` is kept as ``(colour, count)`` pairs in canonical colour order
    (positive counts only) so equal payments compare and hash equal.
    """

    TYPE: ClassVar[str] = "claim_route"

    route: str
    cards: tuple[tuple[str, int], ...]
    souvenir: str | None = None

    @classmethod
    def paying(cls, route: str, cards: Mapping[str, int], souvenir: str | None = None) -> ClaimRoute:
        """Build the action from a ``{colour: count}`` payment."""
        return cls(route, canonical_payment(cards), souvenir)

    @property
    def payment(self) -> dict[str, int]:
        """The payment as ``{colour: count}``."""
        return dict(self.cards)

    def to_body(self) -> dict[str, JSON]:
        """The JSON body; ``cards`` as an object, ``souvenir`` only if named."""
        body: dict[str, JSON] = {"type": self.TYPE, "route": self.route, "cards": self.payment}
        if self.souvenir is not None:
            body["souvenir"] = self.souvenir
        return body


@dataclass(frozen=True)
class DrawTickets(Action):
    """Draw the top two tickets (or the last one)."""

    TYPE: ClassVar[str] = "draw_tickets"


def canonical_payment(cards: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """``cards`` as sorted ``(colour, count)`` pairs without zero counts."""
    return tuple((colour, cards[colour]) for colour in CARD_TYPES if cards.get(colour, 0) > 0)


# --- parsing -----------------------------------------------------------------


def _field(body: Mapping[str, Any], name: str, kind: type | tuple[type, ...], what: str) -> Any:
    if name not in body:
        raise malformed(f"{body['type']}: missing field {name!r} ({what})")
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise malformed(f"{body['type']}: field {name!r} must be {what}")
    return value


def _parse_place(body: Mapping[str, Any]) -> Action:
    check_keys(body, frozenset({"symbol", "location"}))
    symbol = _field(body, "symbol", str, "a souvenir symbol string")
    location = _field(body, "location", str, "a location id string")
    return PlaceSouvenirStack(symbol, location)


def _parse_keep(body: Mapping[str, Any]) -> Action:
    check_keys(body, frozenset({"tickets"}))
    tickets = _field(body, "tickets", list, "a list of ticket ids")
    if not all(isinstance(t, str) for t in tickets):
        raise malformed("keep_tickets: every entry of 'tickets' must be a ticket id string")
    return KeepTickets(tuple(tickets))


def _parse_draw_card(body: Mapping[str, Any]) -> Action:
    check_keys(body, frozenset({"source", "slot"}))
    source = _field(body, "source", str, "'deck' or 'face_up'")
    if source == SOURCE_DECK:
        if body.get("slot") is not None:
            raise malformed("draw_card: 'slot' is only allowed with source 'face_up'")
        return DrawCard(SOURCE_DECK)
    if source == SOURCE_FACE_UP:
        slot = _field(body, "slot", int, "an integer face-up slot 0..4")
        return DrawCard(SOURCE_FACE_UP, slot)
    raise malformed(f"draw_card: unknown source {source!r} (expected 'deck' or 'face_up')")


def _parse_claim(body: Mapping[str, Any]) -> Action:
    check_keys(body, frozenset({"route", "cards", "souvenir"}))
    route = _field(body, "route", str, "a route id string")
    cards = _field(body, "cards", dict, "an object {colour: count}")
    for colour, count in cards.items():
        if colour not in CARD_INDEX:
            raise malformed(f"claim_route: unknown card colour {colour!r} (one of {', '.join(CARD_TYPES)})")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise malformed(f"claim_route: the count of {colour!r} must be a non-negative integer")
    souvenir = body.get("souvenir")
    if souvenir is not None and not isinstance(souvenir, str):
        raise malformed("claim_route: field 'souvenir' must be a souvenir symbol string or null")
    return ClaimRoute.paying(route, cards, souvenir)


def _parse_draw_tickets(body: Mapping[str, Any]) -> Action:
    check_keys(body, frozenset())
    return DrawTickets()


_PARSERS: Mapping[str, Callable[[Mapping[str, Any]], Action]] = {
    PlaceSouvenirStack.TYPE: _parse_place,
    KeepTickets.TYPE: _parse_keep,
    DrawCard.TYPE: _parse_draw_card,
    ClaimRoute.TYPE: _parse_claim,
    DrawTickets.TYPE: _parse_draw_tickets,
}


def parse_action(body: Mapping[str, JSON]) -> Action:
    """Turn a JSON action body into an Action; MalformedAction names the problem."""
    return dispatch(_PARSERS, body)


def action_of(event: Event) -> tuple[int, Action] | None:
    """The (seat, action) whose move ``event`` opens, or None for other events."""
    if isinstance(event, SouvenirStackPlaced):
        return event.seat, PlaceSouvenirStack(event.symbol, event.location)
    if isinstance(event, TicketsKept) and event.kept is not None:
        return event.seat, KeepTickets(event.kept)
    if isinstance(event, CardDrawn):
        return event.seat, DrawCard(event.source, event.slot)
    if isinstance(event, RouteClaimed):
        return event.seat, ClaimRoute.paying(event.route, event.cards, event.souvenir)
    if isinstance(event, TicketsDrawn):
        return event.seat, DrawTickets()
    return None
