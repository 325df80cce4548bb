"""Turn order, the final round, automatic passes and the end of the game."""

from __future__ import annotations

from domain.ttr.batch import Batch
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


def start_play(batch: Batch) -> None:
    """Setup is complete: the starting seat takes the first turn."""
    batch.emit(PlayStarted(seat=batch.state.start_seat))
    _settle(batch)


def end_turn(batch: Batch, seat: int) -> None:
    """End ``seat``'s turn: maybe start the last round, then hand over."""
    batch.emit(TurnEnded(seat=seat))
    cars = batch.state.players[seat].cars
    if batch.state.final_turns_left is None and cars <= LAST_ROUND_CARS:
        batch.emit(LastRoundStarted(seat=seat, cars=cars))
    _settle(batch)


def _settle(batch: Batch) -> None:
    """End the game if due; else pass automatically for seats that cannot act."""
    while True:
        state = batch.state
        if state.final_turns_left == 0:
            _end_game(batch, END_FINAL_ROUND)
            return
        if state.passes >= state.num_players:
            _end_game(batch, END_STALEMATE)
            return
        if can_act(state, state.turn):
            return
        batch.emit(TurnPassed(seat=state.turn))


def _end_game(batch: Batch, reason: str) -> None:
    scores = final_scores(batch.state)
    batch.emit(GameEnded(reason=reason, totals=tuple(s.total for s in scores), winners=winners(scores)))
