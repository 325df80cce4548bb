"""What a seat (or a spectator) may see: the game view and redacted events.

Secret until the game ends: hands, tickets (kept and pending), the order of
the deck and the ticket deck, the rng key, and the card of a blind draw.
After the end everything is public.
"""

from __future__ import annotations

from domain.core import JSON, Event
from domain.forfeits import standings_of
from domain.ttr.actions import SOURCE_DECK
from domain.ttr.board import load_board
from domain.ttr.cards import hand_dict
from domain.ttr.events import (
    CardDrawn,
    CardsDealt,
    DeckRebuilt,
    GameSetUp,
    TicketsDealt,
    TicketsDrawn,
    TicketsKept,
)
from domain.ttr.scoring import result, ticket_scores
from domain.ttr.state import PHASE_FINISHED, PHASE_SETUP, PlayerState, TtrState


def ticket_json(ticket_id: str) -> dict[str, JSON]:
    """A ticket as ``{id, from, to, points}``."""
    ticket = load_board().ticket(ticket_id)
    return {"id": ticket.id, "from": ticket.a, "to": ticket.b, "points": ticket.points}


def _player_json(state: TtrState, seat: int, player: PlayerState) -> dict[str, JSON]:
    colors = load_board().seat_colors
    data: dict[str, JSON] = {
        "seat": seat,
        "name": player.name,
        "color": colors[seat],
        "score": player.score,
        "cars": player.cars,
        "hand_count": player.hand_count,
        "ticket_count": len(player.tickets),
        "pending_ticket_count": len(player.pending),
        "souvenirs": list(player.souvenirs),
        "routes": list(player.routes),
        "standing": standings_of(state.out)[seat],
    }
    if state.finished:
        data["hand"] = hand_dict(player.hand)
        data["tickets"] = [ticket_json(t) for t in player.tickets]
    return data


def view(state: TtrState, seat: int | None) -> dict[str, JSON]:
    """The game as ``seat`` (None: a spectator) may see it."""
    board = load_board()
    data: dict[str, JSON] = {
        "status": state.status,
        "phase": state.phase,
        "active_seats": list(state.active_seats()),
        "turn": None if state.phase in (PHASE_SETUP, PHASE_FINISHED) else state.turn,
        "start_seat": state.start_seat,
        "final_turns_left": state.final_turns_left,
        "players": [_player_json(state, i, p) for i, p in enumerate(state.players)],
        "face_up": list(state.face_up),
        "deck_count": len(state.deck),
        "discard_count": len(state.discard),
        "tickets_left": len(state.ticket_deck),
        "claimed": {
            route.id: owner
            for route, owner in zip(board.routes, state.claimed, strict=True)
            if owner is not None
        },
        "souvenir_stacks": {s.location: {"symbol": s.symbol, "count": s.count} for s in state.stacks},
        "set_aside": list(state.set_aside),
        "set_aside_stack_size": state.set_aside_size if state.set_aside else None,
        "souvenir_placer": state.next_placer,
        "souvenirs_in_box": dict(zip(board.souvenir_symbols, state.box, strict=True)),
        "result": result(state),
    }
    if seat is not None:
        me = state.players[seat]
        data["me"] = {
            "seat": seat,
            "hand": hand_dict(me.hand),
            "tickets": [
                {**ticket_json(score.id), "completed": score.completed} for score in ticket_scores(me)
            ],
            "pending_tickets": [ticket_json(t) for t in me.pending],
        }
    return data


def redact(state: TtrState, event: Event, seat: int | None) -> dict[str, JSON]:
    """``event``'s payload as ``seat`` may see it now (all public once finished)."""
    payload = event.to_payload()
    if state.finished:
        return payload
    if isinstance(event, GameSetUp):
        payload.update(rng_key=None, deck=None, ticket_deck=None)
    elif isinstance(event, DeckRebuilt):
        payload["deck"] = None
    elif isinstance(event, CardsDealt | TicketsDealt):
        field = "hands" if isinstance(event, CardsDealt) else "tickets"
        payload[field] = [own if i == seat else None for i, own in enumerate(payload[field])]
    elif isinstance(event, CardDrawn):
        if event.source == SOURCE_DECK and event.seat != seat:
            payload["card"] = None
    elif isinstance(event, TicketsDrawn):
        if event.seat != seat:
            payload["tickets"] = None
    elif isinstance(event, TicketsKept) and event.seat != seat:
        payload.update(kept=None, returned=None)
    return payload
