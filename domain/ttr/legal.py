"""``legal_actions``: every ready-to-send action ``decide`` accepts now."""

from __future__ import annotations

from itertools import combinations

from domain.core import Action
from domain.ttr.actions import (
    SOURCE_DECK,
    SOURCE_FACE_UP,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    PlaceSouvenirStack,
)
from domain.ttr.board import load_board
from domain.ttr.cards import FERRY
from domain.ttr.claims import claimable_routes, souvenir_options
from domain.ttr.payment import payments
from domain.ttr.state import (
    PHASE_CHOOSING_TICKETS,
    PHASE_SECOND_DRAW,
    PHASE_SETUP,
    PHASE_TURN_START,
    TtrState,
)


def keep_choices(pending: tuple[str, ...]) -> list[Action]:
    """Every non-empty subset of the pending tickets (in pending order)."""
    return [KeepTickets(kept) for size in range(1, len(pending) + 1) for kept in combinations(pending, size)]


def placements(state: TtrState) -> list[Action]:
    """Every (set-aside symbol, location without a stack) placement."""
    taken = {stack.location for stack in state.stacks}
    free = [loc.id for loc in load_board().locations if loc.id not in taken]
    return [PlaceSouvenirStack(symbol, loc) for symbol in dict.fromkeys(state.set_aside) for loc in free]


def card_draws(state: TtrState, second: bool) -> list[Action]:
    """Every card that can be taken (no face-up ferry as the second card)."""
    out: list[Action] = [DrawCard(SOURCE_DECK)] if state.deck else []
    for slot, card in enumerate(state.face_up):
        if card is not None and not (second and card == FERRY):
            out.append(DrawCard(SOURCE_FACE_UP, slot))
    return out


def claims(state: TtrState, seat: int) -> list[Action]:
    """Every claimable route x every distinct payment x every souvenir choice."""
    hand = state.players[seat].hand
    out: list[Action] = []
    for route in claimable_routes(state, seat):
        options = souvenir_options(state, seat, route)
        choices: tuple[str | None, ...] = options if len(options) > 1 else (None,)
        for payment in payments(route, hand):
            for souvenir in choices:
                out.append(ClaimRoute.paying(route.id, payment, souvenir))
    return out


def legal_actions(state: TtrState, seat: int) -> list[Action]:
    """Every move ``seat`` may make now (empty when it may not act; ``resign``
    is added by :meth:`domain.core.GameDefinition.sendable`)."""
    if seat not in state.active_seats():
        return []
    player = state.players[seat]
    if state.phase == PHASE_SETUP:
        out = keep_choices(player.pending)
        if state.next_placer == seat:
            out += placements(state)
        return out
    if state.phase == PHASE_CHOOSING_TICKETS:
        return keep_choices(player.pending)
    if state.phase == PHASE_SECOND_DRAW:
        return card_draws(state, second=True)
    assert state.phase == PHASE_TURN_START
    out = card_draws(state, second=False) + claims(state, seat)
    if state.ticket_deck:
        out.append(DrawTickets())
    return out
