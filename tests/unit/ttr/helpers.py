"""Helpers for ttr-sf scenario tests: real set-ups and crafted states."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from domain.core import Action, Event, GameConfig, replay
from domain.ttr import GAME
from domain.ttr.board import load_board
from domain.ttr.cards import CARD_TYPES, hand_of
from domain.ttr.legal import keep_choices, placements
from domain.ttr.state import PHASE_SETUP, PHASE_TURN_START, SouvenirStack, TtrState

BOARD = load_board()
NAMES = ("Ada", "Bo", "Cy", "Di")

#: souvenir stacks of crafted states (a 2-player layout): location -> (symbol, count)
DEFAULT_STACKS: Mapping[str, tuple[str, int]] = {
    "alcatraz": ("bridge", 2),
    "golden-gate-bridge": ("cable-car-bell", 2),
    "the-embarcadero": ("fortune-cookie", 2),
    "sunset": ("key", 2),
    "potrero-hill": ("sea-lion", 2),
    "castro": ("sourdough", 1),
    "chinatown": ("surfboard", 1),
}


def config(players: int = 2, seed: str = "test-seed", start_seat: int = 0) -> GameConfig:
    """A game configuration with ``players`` named seats."""
    return GameConfig(players=NAMES[:players], seed=seed, start_seat=start_seat)


def new_game(players: int = 2, seed: str = "test-seed", start_seat: int = 0) -> tuple[list[Event], TtrState]:
    """The setup events of a real game and the state they lead to."""
    events = GAME.setup(config(players, seed, start_seat))
    return events, replay(GAME, events)


def act(state: TtrState, seat: int, action: Action) -> tuple[list[Event], TtrState]:
    """Decide ``action`` and apply its events."""
    events = GAME.decide(state, seat, action)
    return events, replay(GAME, events, state)


def finish_setup(state: TtrState) -> tuple[list[Event], TtrState]:
    """Make every setup choice (place stacks on the first free locations,
    keep every dealt ticket) and return the events and the playing state."""
    events: list[Event] = []
    while state.phase == PHASE_SETUP:
        seat = state.active_seats()[0]
        if state.next_placer == seat:
            action = placements(state)[0]
        else:
            action = keep_choices(state.players[seat].pending)[-1]
        new, state = act(state, seat, action)
        events += new
    return events, state


def started(players: int = 2, seed: str = "test-seed", start_seat: int = 0) -> TtrState:
    """A real game of ``players`` right after setup (first turn, start seat)."""
    _, state = new_game(players, seed, start_seat)
    return finish_setup(state)[1]


def remainder(*used: Iterable[str | None]) -> tuple[str, ...]:
    """The full deck minus ``used`` cards, in canonical order (blue first)."""
    left = Counter(BOARD.full_deck())
    for cards in used:
        left.subtract(c for c in cards if c is not None)
    assert all(v >= 0 for v in left.values()), f"more cards used than exist: {left}"
    return tuple(card for card in CARD_TYPES for _ in range(left[card]))


def crafted(
    players: int = 2,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    face_up: Sequence[str | None] = ("blue", "green", "black", "purple", "red"),
    discard: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    turn: int = 0,
    cars: Sequence[int] | None = None,
    claimed: Mapping[str, int] | None = None,
    souvenirs: Sequence[Sequence[str]] | None = None,
    stacks: Mapping[str, tuple[str, int]] = DEFAULT_STACKS,
    tickets: Sequence[Sequence[str]] | None = None,
    ticket_deck: Sequence[str] | None = None,
) -> TtrState:
    """A playing state with chosen cards, claims, souvenirs and tickets.

    Unless given, the deck is every other card in canonical order (so the 44
    cards stay accounted for), each seat holds no card, has 20 cars, keeps no
    ticket, and the souvenir stacks are :data:`DEFAULT_STACKS` (the box holds
    the other tokens).
    """
    state = started(players)
    hands = hands if hands is not None else [()] * players
    if deck is None:
        deck = remainder(face_up, discard, *hands)
    new_players = []
    for seat, player in enumerate(state.players):
        route_ids = tuple(r for r, owner in (claimed or {}).items() if owner == seat)
        new_players.append(
            replace(
                player,
                hand=hand_of(hands[seat]),
                cars=cars[seat] if cars is not None else player.cars,
                souvenirs=tuple(souvenirs[seat]) if souvenirs is not None else (),
                tickets=tuple(tickets[seat]) if tickets is not None else (),
                routes=route_ids,
                score=sum(BOARD.route_points[BOARD.routes_by_id[r].length] for r in route_ids),
            )
        )
    claims = tuple((claimed or {}).get(route.id) for route in BOARD.routes)
    changes: dict[str, object] = {
        "stacks": tuple(SouvenirStack(loc, sym, n) for loc, (sym, n) in stacks.items()),
        "box": tuple(
            3
            - sum(n for sym, n in stacks.values() if sym == symbol)
            - sum(s.count(symbol) for s in souvenirs or ())
            for symbol in BOARD.souvenir_symbols
        ),
    }
    if ticket_deck is not None:
        changes["ticket_deck"] = tuple(ticket_deck)
    return replace(
        state,
        players=tuple(new_players),
        face_up=tuple(face_up) + (None,) * (5 - len(face_up)),
        discard=tuple(discard),
        deck=tuple(deck),
        claimed=claims,
        turn=turn,
        phase=PHASE_TURN_START,
        **changes,  # type: ignore[arg-type]
    )


def types(events: Iterable[Event]) -> list[str]:
    """The type names of ``events``; an event that also ends the turn is
    ``<type>+turn_ended`` (``ttr-sf/3`` records the turn's end in it)."""
    return [f"{e.TYPE}+turn_ended" if getattr(e, "ends_turn", False) else e.TYPE for e in events]


def card_total(state: TtrState) -> int:
    """Cards in deck + face-up row + discard pile + hands."""
    row = sum(1 for c in state.face_up if c is not None)
    return len(state.deck) + row + len(state.discard) + sum(p.hand_count for p in state.players)
