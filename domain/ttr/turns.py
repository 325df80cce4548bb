"""Turn order, the final round, automatic passes, forfeits and the end of the game.

**Rulings** for seats that are out (see :mod:`domain.forfeits`): their turns
are skipped (the turn goes to the next seat still in); the last round gives
one final turn to each seat still in; a forfeit owes its setup choices by
these defaults: pending tickets (dealt or drawn) are all kept, and a set-aside
souvenir stack it was due to place goes, first set-aside symbol first, to the
first location in board order that has no stack.  A stalemate is every seat
still in passing in a row.  Seats that are out cannot win; when one seat is
left in, it wins at once (reason ``forfeit``); seats that miss one setup
deadline together go out together, and if that leaves nobody in, the game
ends with no winner.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.core import Decision, Event
from domain.forfeits import next_in
from domain.ttr.board import load_board
from domain.ttr.claims import claimable_routes
from domain.ttr.events import (
    TURN_END_CARRIERS,
    GameEnded,
    LastRoundStarted,
    PlayStarted,
    SouvenirStackPlaced,
    TicketsKept,
    TurnEnded,
    TurnPassed,
)
from domain.ttr.scoring import final_scores, winners
from domain.ttr.state import (
    END_FINAL_ROUND,
    END_FORFEIT,
    END_STALEMATE,
    PHASE_SETUP,
    TURN_END_IN_MOVE,
    TtrState,
)
from domain.ttr.supply import can_take_card
from domain.turnends import carry_turn_end

#: a player ending a turn with this many cars or fewer starts the last round
LAST_ROUND_CARS = 2


def can_act(state: TtrState, seat: int) -> bool:
    """Whether ``seat`` has any legal action at the start of its turn."""
    if can_take_card(state, second=False) or state.ticket_deck:
        return True
    return bool(claimable_routes(state, seat))


def start_play(decision: Decision[TtrState]) -> None:
    """Setup is complete: the starting seat (or the next still in) takes the first turn."""
    state = decision.state
    first = state.start_seat if state.out[state.start_seat] is None else next_in(state.out, state.start_seat)
    decision.emit(PlayStarted(seat=first))
    _settle(decision)


def end_turn(decision: Decision[TtrState], seat: int) -> None:
    """End ``seat``'s turn (in the move's last event where the rules record
    it there, else with ``turn_ended``): maybe start the last round, then hand over."""
    if not (decision.state.rules >= TURN_END_IN_MOVE and carry_turn_end(decision, TURN_END_CARRIERS)):
        decision.emit(TurnEnded(seat=seat))
    cars = decision.state.players[seat].cars
    if decision.state.final_turns_left is None and cars <= LAST_ROUND_CARS:
        decision.emit(LastRoundStarted(seat=seat, cars=cars))
    _settle(decision)


def _settle(decision: Decision[TtrState]) -> None:
    """End the game if due; else pass automatically for seats that cannot act."""
    while True:
        state = decision.state
        if state.final_turns_left == 0:
            _end_game(decision, END_FINAL_ROUND)
            return
        if state.passes >= len(state.seats_in):
            _end_game(decision, END_STALEMATE)
            return
        if can_act(state, state.turn):
            return
        decision.emit(TurnPassed(seat=state.turn))


def _end_game(decision: Decision[TtrState], reason: str) -> None:
    state = decision.state
    scores = final_scores(state)
    decision.emit(GameEnded(reason=reason, totals=tuple(s.total for s in scores), winners=winners(scores, state.out)))


def _default_choices(decision: Decision[TtrState], seat: int) -> None:
    """The setup or ticket choices ``seat`` (now out) still owed, made by the stated defaults."""
    pending = decision.state.players[seat].pending
    if pending:
        decision.emit(TicketsKept(seat=seat, kept=pending, returned=(), kept_count=len(pending), returned_count=0))
    place_for_seats_out(decision)


def place_for_seats_out(decision: Decision[TtrState]) -> None:
    """Place the set-aside stacks due from seats that are out (first free location in board order)."""
    while True:
        state = decision.state
        placer = state.next_placer
        if placer is None or state.out[placer] is None:
            return
        taken = {stack.location for stack in state.stacks}
        location = next(loc.id for loc in load_board().locations if loc.id not in taken)
        decision.emit(SouvenirStackPlaced(seat=placer, symbol=state.set_aside[0], location=location,
                                          count=state.set_aside_size))


def forfeit(decision: Decision[TtrState], outs: Sequence[Event]) -> None:
    """The seats of ``outs`` go out together; see the module's rulings."""
    state = decision.state
    turn = state.turn
    playing_turn = state.phase != PHASE_SETUP and any(getattr(e, "seat", None) == turn for e in outs)
    for event in outs:
        decision.emit(event)
    for event in outs:
        _default_choices(decision, event.seat)  # type: ignore[attr-defined]
    state = decision.state
    if len(state.seats_in) <= 1:
        _end_game(decision, END_FORFEIT)
    elif state.phase == PHASE_SETUP:
        if state.setup_done():
            start_play(decision)
    elif playing_turn:
        decision.emit(TurnEnded(seat=turn))
        _settle(decision)
