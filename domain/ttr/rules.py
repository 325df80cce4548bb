"""The rule of each move (:data:`MOVES`): the events an action produces, or
the rule it breaks.

Every refusal is an :class:`~domain.errors.IllegalAction` with a stable code
(or NotYourTurn).  Accepted actions are turned into events through a
:class:`~domain.core.Decision`, which applies each event as it is emitted;
automatic consequences (refills, deck rebuilds, ferry resets, turn end,
automatic passes, the end of the game) are emitted in the same decision.
The game-over and seat-range guards run first, in
:meth:`domain.core.GameDefinition.decide`.

Refusal codes (IllegalAction unless noted):

* setup: ``not_in_setup``, ``souvenirs_placed``, ``wrong_symbol``,
  ``unknown_location``, ``location_has_stack``; ``setup_not_finished`` for
  a turn action before every setup choice is made, sent by a seat that still
  has one to make (a seat with none left gets NotYourTurn);
* tickets: ``no_pending_tickets``, ``must_keep_one_ticket``,
  ``duplicate_ticket``, ``not_pending_ticket``, ``no_tickets_left``,
  ``pending_ticket_choice`` (any other action while choosing);
* cards: ``no_card_available``, ``deck_empty``, ``unknown_slot``,
  ``empty_slot``, ``ferry_second_draw``, ``draw_in_progress`` (anything but
  the second card);
* routes: ``unknown_route``, ``route_taken``, ``double_route_same_player``,
  ``double_route_closed``, ``not_enough_cars``, ``wrong_cards``,
  ``not_enough_cards``, ``souvenir_choice_required``, ``souvenir_not_available``;
* NotYourTurn (``not_your_turn``) when it is another seat's turn.

A second claim in one turn cannot happen: a claim ends the turn, so it is
refused with NotYourTurn.
"""

from __future__ import annotations

from domain.core import Decision, Move
from domain.errors import IllegalAction, NotYourTurn
from domain.forfeits import resign_move, standings_of
from domain.ttr.actions import (
    SOURCE_DECK,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    PlaceSouvenirStack,
)
from domain.ttr.board import load_board
from domain.ttr.cards import FERRY, holds
from domain.ttr.claims import claim_refusal, souvenir_options
from domain.ttr.events import CardDrawn, RouteClaimed, SouvenirStackPlaced, TicketsDrawn, TicketsKept
from domain.ttr.payment import payment_error
from domain.ttr.state import (
    PHASE_CHOOSING_TICKETS,
    PHASE_SECOND_DRAW,
    PHASE_SETUP,
    ROW_SIZE,
    TtrState,
)
from domain.ttr.supply import can_take_card, restock
from domain.ttr.turns import end_turn, forfeit, place_for_seats_out, start_play

#: tickets drawn by one draw_tickets action
TICKETS_PER_DRAW = 2


def _turn_guard(state: TtrState, seat: int, *, second_draw_ok: bool = False) -> None:
    """Refuse a turn action (draw, claim, draw tickets) that may not be taken now."""
    if state.phase == PHASE_SETUP:
        # A seat with no setup choice left may not act at all (409, like any
        # seat outside active_seats); one still choosing may, but not this.
        if seat not in state.active_seats():
            raise NotYourTurn(f"seat {seat} has no setup choice to make; play has not started")
        raise IllegalAction(
            "setup_not_finished", "no turn action is legal until every setup choice has been made"
        )
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn")
    if state.phase == PHASE_CHOOSING_TICKETS:
        raise IllegalAction(
            "pending_ticket_choice", "the drawn tickets must be chosen (keep_tickets) before anything else"
        )
    if state.phase == PHASE_SECOND_DRAW and not second_draw_ok:
        raise IllegalAction("draw_in_progress", "a card draw is under way: take the second card")


def _place_souvenir(decision: Decision[TtrState], seat: int, action: PlaceSouvenirStack) -> None:
    state = decision.state
    if state.phase != PHASE_SETUP:
        raise IllegalAction("not_in_setup", "set-aside souvenir stacks are placed only during setup")
    placer = state.next_placer
    if placer is None:
        raise IllegalAction("souvenirs_placed", "every set-aside souvenir stack has already been placed")
    if seat != placer:
        raise NotYourTurn(f"seat {placer} places the next set-aside souvenir stack")
    if action.symbol not in state.set_aside:
        raise IllegalAction(
            "wrong_symbol",
            f"{action.symbol!r} is not a set-aside souvenir symbol (still to place: "
            f"{', '.join(state.set_aside)})",
        )
    if action.location not in load_board().location_ids:
        raise IllegalAction("unknown_location", f"there is no location {action.location!r} on this board")
    if state.stack_at(action.location) is not None:
        raise IllegalAction(
            "location_has_stack", f"{action.location} already holds a souvenir stack: pick one without"
        )
    decision.emit(
        SouvenirStackPlaced(
            seat=seat, symbol=action.symbol, location=action.location, count=state.set_aside_size
        )
    )
    place_for_seats_out(decision)
    if decision.state.setup_done():
        start_play(decision)


def _keep_tickets(decision: Decision[TtrState], seat: int, action: KeepTickets) -> None:
    state = decision.state
    in_setup = state.phase == PHASE_SETUP
    if in_setup:
        if seat not in state.active_seats():
            raise NotYourTurn(f"seat {seat} has no setup choice to make")
    elif seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn")
    pending = state.players[seat].pending
    if not pending:
        raise IllegalAction("no_pending_tickets", f"seat {seat} has no drawn tickets to choose from")
    chosen = action.tickets
    if not chosen:
        raise IllegalAction("must_keep_one_ticket", "at least one of the drawn tickets must be kept")
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("duplicate_ticket", "each ticket may be named only once")
    strangers = [t for t in chosen if t not in pending]
    if strangers:
        raise IllegalAction(
            "not_pending_ticket",
            f"{', '.join(strangers)} not among the tickets to choose from ({', '.join(pending)})",
        )
    kept = tuple(t for t in pending if t in chosen)
    returned = tuple(t for t in pending if t not in chosen)
    decision.emit(
        TicketsKept(
            seat=seat, kept=kept, returned=returned, kept_count=len(kept), returned_count=len(returned)
        )
    )
    if not in_setup:
        end_turn(decision, seat)
    elif decision.state.setup_done():
        start_play(decision)


def _draw_card(decision: Decision[TtrState], seat: int, action: DrawCard) -> None:
    state = decision.state
    _turn_guard(state, seat, second_draw_ok=True)
    second = state.phase == PHASE_SECOND_DRAW
    if not can_take_card(state, second):
        raise IllegalAction(
            "no_card_available",
            "no card can be taken: the deck is empty and the face-up row holds no card"
            + (" but ferries (a face-up ferry may not be the second card)" if second else ""),
        )
    if action.source == SOURCE_DECK:
        if not state.deck:
            raise IllegalAction("deck_empty", "the deck and the discard pile are empty: take a face-up card")
        card = state.deck[0]
    else:
        slot = action.slot
        if slot is None or not 0 <= slot < ROW_SIZE:
            raise IllegalAction("unknown_slot", f"face-up slots are numbered 0..{ROW_SIZE - 1}, not {slot}")
        face_up = state.face_up[slot]
        if face_up is None:
            raise IllegalAction("empty_slot", f"face-up slot {slot} is empty (no card was left to refill it)")
        if second and face_up == FERRY:
            raise IllegalAction("ferry_second_draw", "a face-up ferry may not be taken as the second card")
        card = face_up
    decision.emit(CardDrawn(seat=seat, source=action.source, slot=action.slot, card=card))
    restock(decision)
    ferry_first = not second and action.source != SOURCE_DECK and card == FERRY
    if second or ferry_first or not can_take_card(decision.state, second=True):
        end_turn(decision, seat)


def _choose_souvenir(state: TtrState, seat: int, action: ClaimRoute, options: tuple[str, ...]) -> str | None:
    if action.souvenir is None:
        if len(options) > 1:
            raise IllegalAction(
                "souvenir_choice_required",
                f"both ends offer a souvenir: name one of {', '.join(options)} in 'souvenir'",
            )
        return options[0] if options else None
    if action.souvenir not in options:
        held = action.souvenir in state.players[seat].souvenirs
        raise IllegalAction(
            "souvenir_not_available",
            f"souvenir {action.souvenir!r} cannot be taken here"
            + (" (a player never holds two tokens of the same symbol)" if held else "")
            + (f"; available: {', '.join(options)}" if options else "; none is available"),
        )
    return action.souvenir


def _claim_route(decision: Decision[TtrState], seat: int, action: ClaimRoute) -> None:
    state = decision.state
    _turn_guard(state, seat)
    board = load_board()
    route = board.route(action.route)
    if route is None:
        raise IllegalAction("unknown_route", f"there is no route {action.route!r} on this board")
    refusal = claim_refusal(state, seat, route)
    if refusal is not None:
        raise refusal
    payment = action.payment
    problem = payment_error(route, payment)
    if problem is not None:
        raise IllegalAction("wrong_cards", problem)
    if not holds(state.players[seat].hand, payment):
        raise IllegalAction("not_enough_cards", f"seat {seat} does not hold the cards {payment}")
    souvenir = _choose_souvenir(state, seat, action, souvenir_options(state, seat, route))
    points = board.route_points[route.length]
    decision.emit(RouteClaimed(seat=seat, route=route.id, cards=payment, souvenir=souvenir, points=points))
    restock(decision)
    end_turn(decision, seat)


def _draw_tickets(decision: Decision[TtrState], seat: int, action: DrawTickets) -> None:
    state = decision.state
    _turn_guard(state, seat)
    if not state.ticket_deck:
        raise IllegalAction("no_tickets_left", "the ticket deck is empty")
    drawn = state.ticket_deck[:TICKETS_PER_DRAW]
    decision.emit(TicketsDrawn(seat=seat, tickets=drawn, count=len(drawn)))


#: every move of the game, in the order clients list them
MOVES: tuple[Move[TtrState], ...] = (
    Move(PlaceSouvenirStack, _place_souvenir),
    Move(KeepTickets, _keep_tickets),
    Move(DrawCard, _draw_card),
    Move(ClaimRoute, _claim_route),
    Move(DrawTickets, _draw_tickets),
    resign_move(forfeit, lambda state: standings_of(state.out)),
)
