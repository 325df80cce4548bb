"""The events of Ticket to Ride: San Francisco.

Events are facts: every random outcome (deck order, rebuilt deck, ticket
order, souvenir placement) is written into them, so :mod:`evolve` needs no
randomness.  Fields owned by one seat (dealt cards, a blind draw, tickets)
are secret to the others until the game ends; :mod:`view` redacts them.

The first event of every move carries the acting ``seat`` and lets
:func:`domain.ttr.actions.action_of` recover the action.  Under ``ttr-sf/3``
the move's last event says when it ended the turn (``ends_turn``) if it is
one of :data:`TURN_END_CARRIERS`; otherwise, and under older rules, a
``turn_ended`` event follows (see :mod:`domain.turnends`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from domain.core import JSON, Event
from domain.forfeits import FORFEIT_EVENTS


@dataclass(frozen=True)
class GameSetUp(Event):
    """The game was created: players, seeded orders and souvenir placement.

    ``souvenir_symbols[i]`` is the symbol of the stack on the i-th fixed
    souvenir location; ``set_aside`` are the two symbols placed by players.
    ``rng_key``, ``deck`` and ``ticket_deck`` are secret to everybody until
    the game ends.
    """

    TYPE: ClassVar[str] = "game_set_up"
    REDACTED: ClassVar[tuple[str, ...]] = ("rng_key", "deck", "ticket_deck")

    players: tuple[str, ...]
    start_seat: int
    rules_version: str
    board_version: str
    rng_key: str | None
    rng_counter: int
    deck: tuple[str, ...] | None
    ticket_deck: tuple[str, ...] | None
    souvenir_symbols: tuple[str, ...]
    stack_size: int
    set_aside: tuple[str, ...]
    set_aside_size: int
    placers: tuple[int, ...]
    #: the time control as created; absent for an untimed game, so untimed
    #: games (and every game from before time controls) keep their exact payload
    time_control: Mapping[str, JSON] | None = None

    def to_payload(self) -> dict[str, JSON]:
        """The stored payload; without ``time_control`` when there is none."""
        payload = super().to_payload()
        if payload.get("time_control") is None:
            del payload["time_control"]
        return payload


@dataclass(frozen=True)
class CardsDealt(Event):
    """The top cards of the deck were dealt: ``hands[seat]`` (secret to others)."""

    TYPE: ClassVar[str] = "cards_dealt"
    REDACTED: ClassVar[tuple[str, ...]] = ("hands[]",)

    hands: tuple[tuple[str, ...] | None, ...]


@dataclass(frozen=True)
class TicketsDealt(Event):
    """The top tickets were dealt: ``tickets[seat]`` (secret to others)."""

    TYPE: ClassVar[str] = "tickets_dealt"
    REDACTED: ClassVar[tuple[str, ...]] = ("tickets[]",)

    tickets: tuple[tuple[str, ...] | None, ...]


@dataclass(frozen=True)
class FaceUpRefilled(Event):
    """The top card of the deck was turned face up into ``slot``."""

    TYPE: ClassVar[str] = "face_up_refilled"
    SCHEMA_VERSION: ClassVar[int] = 2

    slot: int
    card: str
    #: the turn ended with this event (``ttr-sf/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class FaceUpReset(Event):
    """Three or more face-up ferries: the whole row went to the discard pile."""

    TYPE: ClassVar[str] = "face_up_reset"

    discarded: tuple[str, ...]


@dataclass(frozen=True)
class DeckRebuilt(Event):
    """The deck was empty: the discard pile was shuffled into a new ``deck``
    (order secret to everybody until the game ends)."""

    TYPE: ClassVar[str] = "deck_rebuilt"
    REDACTED: ClassVar[tuple[str, ...]] = ("deck",)
    SCHEMA_VERSION: ClassVar[int] = 2

    deck: tuple[str, ...] | None
    count: int
    rng_counter: int
    #: the turn ended with this event (``ttr-sf/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class SouvenirStackPlaced(Event):
    """A set-aside stack of ``count`` ``symbol`` tokens was placed at ``location``."""

    TYPE: ClassVar[str] = "souvenir_stack_placed"

    seat: int
    symbol: str
    location: str
    count: int


@dataclass(frozen=True)
class TicketsKept(Event):
    """``seat`` kept ``kept`` of its pending tickets; ``returned`` went to the
    bottom of the ticket deck in that order (ids secret to others)."""

    TYPE: ClassVar[str] = "tickets_kept"
    REDACTED: ClassVar[tuple[str, ...]] = ("kept", "returned")
    SCHEMA_VERSION: ClassVar[int] = 2

    seat: int
    kept: tuple[str, ...] | None
    returned: tuple[str, ...] | None
    kept_count: int
    returned_count: int
    #: the turn ended with this event (``ttr-sf/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class PlayStarted(Event):
    """Setup is complete; ``seat`` takes the first turn."""

    TYPE: ClassVar[str] = "play_started"

    seat: int


@dataclass(frozen=True)
class CardDrawn(Event):
    """``seat`` took a card from the deck (``card`` secret to others) or from
    face-up ``slot`` (public)."""

    TYPE: ClassVar[str] = "card_drawn"
    REDACTED: ClassVar[tuple[str, ...]] = ("card",)  # a card drawn from the deck
    SCHEMA_VERSION: ClassVar[int] = 2

    seat: int
    source: str
    slot: int | None
    card: str | None
    #: the turn ended with this event (``ttr-sf/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class RouteClaimed(Event):
    """``seat`` claimed ``route`` paying ``cards`` (colour -> count), scored
    ``points`` and took the souvenir ``souvenir`` (or none).

    Schema 3; version 1 stored ``cards`` as a flat list of colour names,
    version 2 had no ``ends_turn`` (see :mod:`domain.ttr.upcasters`).
    """

    TYPE: ClassVar[str] = "route_claimed"
    SCHEMA_VERSION: ClassVar[int] = 3

    seat: int
    route: str
    cards: Mapping[str, int]
    souvenir: str | None
    points: int
    #: the turn ended with this event (``ttr-sf/3``; before, a ``turn_ended`` followed)
    ends_turn: bool = False


@dataclass(frozen=True)
class TicketsDrawn(Event):
    """``seat`` drew the top ``count`` tickets (ids secret to others)."""

    TYPE: ClassVar[str] = "tickets_drawn"
    REDACTED: ClassVar[tuple[str, ...]] = ("tickets",)

    seat: int
    tickets: tuple[str, ...] | None
    count: int


@dataclass(frozen=True)
class TurnEnded(Event):
    """``seat`` finished its turn; the next seat in order is to play."""

    TYPE: ClassVar[str] = "turn_ended"

    seat: int


@dataclass(frozen=True)
class TurnPassed(Event):
    """``seat`` had no legal action and passed automatically."""

    TYPE: ClassVar[str] = "turn_passed"

    seat: int


@dataclass(frozen=True)
class LastRoundStarted(Event):
    """``seat`` ended a turn with ``cars`` (<= 2) cars: every seat gets one
    final turn, ``seat`` last."""

    TYPE: ClassVar[str] = "last_round_started"

    seat: int
    cars: int


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over (``reason``: ``final_round``, ``stalemate`` or
    ``forfeit``: one seat left in) with
    these final ``totals`` (by seat) and ``winners``."""

    TYPE: ClassVar[str] = "game_ended"

    reason: str
    totals: tuple[int, ...]
    winners: tuple[int, ...]


EVENT_CLASSES: tuple[type[Event], ...] = (
    GameSetUp,
    CardsDealt,
    TicketsDealt,
    FaceUpRefilled,
    FaceUpReset,
    DeckRebuilt,
    SouvenirStackPlaced,
    TicketsKept,
    PlayStarted,
    CardDrawn,
    RouteClaimed,
    TicketsDrawn,
    TurnEnded,
    TurnPassed,
    LastRoundStarted,
    GameEnded,
    *FORFEIT_EVENTS,
)

#: the events a turn commonly ends with, which carry its end under ``ttr-sf/3``
TURN_END_CARRIERS: tuple[type[Event], ...] = (
    CardDrawn,
    RouteClaimed,
    TicketsKept,
    FaceUpRefilled,
    DeckRebuilt,
)
