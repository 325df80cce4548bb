"""The actions a seat can send; each field declares its JSON body shape.

Bodies (fixed by the HTTP contract)::

    {"type": "place_souvenir_stack", "symbol": "key", "location": "lombard-street"}
    {"type": "keep_tickets", "tickets": ["T03"]}
    {"type": "draw_card", "source": "deck"}
    {"type": "draw_card", "source": "face_up", "slot": 0}
    {"type": "claim_route", "route": "marina--fort-mason", "cards": {"black": 1}, "souvenir": "key"}
    {"type": "draw_tickets"}

Parsing (:meth:`domain.core.GameDefinition.parse_action`) checks shapes only
(MalformedAction); whether the rules allow the action is for
:mod:`domain.ttr.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain.body import Integer, ListOf, MapOf, Text, body_field, malformed
from domain.core import Action, Event
from domain.forfeits import Resign, SeatResigned
from domain.ttr.cards import CARD_TYPES
from domain.ttr.events import CardDrawn, RouteClaimed, SouvenirStackPlaced, TicketsDrawn, TicketsKept

SOURCE_DECK = "deck"
SOURCE_FACE_UP = "face_up"

SYMBOL = Text(max_length=40)
#: a face-up slot (the row holds five cards)
SLOT = Integer(minimum=0, maximum=4)
#: a count of one colour in a payment (there are 44 cards of a kind at most)
CARD_COUNT = Integer(minimum=0, maximum=44)


@dataclass(frozen=True)
class PlaceSouvenirStack(Action):
    """Setup: place a set-aside souvenir stack on a location without one."""

    TYPE: ClassVar[str] = "place_souvenir_stack"

    symbol: str = body_field(SYMBOL)
    location: str = body_field(Text(max_length=60))


@dataclass(frozen=True)
class KeepTickets(Action):
    """Keep these pending tickets (the others are returned)."""

    TYPE: ClassVar[str] = "keep_tickets"

    tickets: tuple[str, ...] = body_field(ListOf(Text(max_length=10), min_items=1, max_items=3))


@dataclass(frozen=True)
class DrawCard(Action):
    """Take one transport card: the top of the deck or face-up ``slot``
    (``slot`` goes with ``face_up`` only, and always with it)."""

    TYPE: ClassVar[str] = "draw_card"

    source: str = body_field(Text(choices=(SOURCE_DECK, SOURCE_FACE_UP)))
    slot: int | None = body_field(SLOT, optional=True)

    def __post_init__(self) -> None:
        if self.source == SOURCE_DECK and self.slot is not None:
            raise malformed("draw_card: 'slot' is only allowed with source 'face_up'")
        if self.source == SOURCE_FACE_UP and self.slot is None:
            raise malformed(f"draw_card: missing field 'slot' ({SLOT.describe()})")
        if self.source not in (SOURCE_DECK, SOURCE_FACE_UP):
            raise malformed(f"draw_card: unknown source {self.source[:40]!r} (expected 'deck' or 'face_up')")


@dataclass(frozen=True)
class ClaimRoute(Action):
    """Claim ``route`` paying ``cards`` and, when a choice exists, taking ``souvenir``.

    ``cards`` arrives as ``{colour: count}`` and is kept as ``(colour, count)``
    pairs in canonical colour order (positive counts only), so equal payments
    compare and hash equal.
    """

    TYPE: ClassVar[str] = "claim_route"

    route: str = body_field(Text(max_length=80))
    cards: tuple[tuple[str, int], ...] = body_field(MapOf(Text(choices=CARD_TYPES), CARD_COUNT))
    souvenir: str | None = body_field(SYMBOL, optional=True)

    def __post_init__(self) -> None:
        if isinstance(self.cards, Mapping):
            object.__setattr__(self, "cards", canonical_payment(self.cards))

    @classmethod
    def paying(cls, route: str, cards: Mapping[str, int], souvenir: str | None = None) -> ClaimRoute:
        """Build the action from a ``{colour: count}`` payment."""
        return cls(route, canonical_payment(cards), souvenir)

    @property
    def payment(self) -> dict[str, int]:
        """The payment as ``{colour: count}``."""
        return dict(self.cards)


@dataclass(frozen=True)
class DrawTickets(Action):
    """Draw the top two tickets (or the last one)."""

    TYPE: ClassVar[str] = "draw_tickets"


def canonical_payment(cards: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """``cards`` as sorted ``(colour, count)`` pairs without zero counts."""
    return tuple((colour, cards[colour]) for colour in CARD_TYPES if cards.get(colour, 0) > 0)


def action_of(event: Event) -> tuple[int, Action] | None:
    """The (seat, action) whose move ``event`` opens, or None for other events."""
    if isinstance(event, SeatResigned):
        return event.seat, Resign()
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
