"""Turn order, the final round, automatic passes and the end of the game."""

from __future__ import annotations

from domain.core import Decision
from domain.ttr.claims import claimable_routes
from domain.ttr.events import GameEnded, LastRoundStarted, PlayStarted, TurnEnded, TurnPassed
from domain.ttr.scoring import final_scores, winners
from domain.ttr.state import END_FINAL_ROUND, END_STALEMATE, TtrState
from domain.ttr.supply import can_take_card

#: a player ending a turn with this many cars or fewer starts the last round
LAST_ROUND_CARS = 2


def can_act(state: TtrState, seat: int) -> bool:
    """Whether ``seat`` has any legal action at the start of its turn."""
    if can_take_card(state, second=False) or state.ticket_deck:
        return True
    return bool(claimable_routes(state, seat))


def start_play(decision: Decision[TtrState]) -> None:
    """Setup is complete: the starting seat takes the first turn."""
    decision.emit(PlayStarted(seat=decision.state.start_seat))
    _settle(decision)


def end_turn(decision: Decision[TtrState], seat: int) -> None:
    """End ``seat``'s turn: maybe start the last round, then hand over."""
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
        if state.passes >= state.num_players:
            _end_game(decision, END_STALEMATE)
            return
        if can_act(state, state.turn):
            return
        decision.emit(TurnPassed(seat=state.turn))


def _end_game(decision: Decision[TtrState], reason: str) -> None:
    scores = final_scores(decision.state)
    decision.emit(GameEnded(reason=reason, totals=tuple(s.total for s in scores), winners=winners(scores)))
