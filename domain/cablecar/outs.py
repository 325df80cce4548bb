"""Seats going out (resigned, timed out) in the middle of a cable-car game:
above both the turn order (:mod:`domain.cablecar.turns`) and drawing
(:mod:`domain.cablecar.drawing`), since a seat going out may end the game,
pass the turn, or take a choice of draw away from the seat whose turn it is."""

from __future__ import annotations

from collections.abc import Sequence

from domain.cablecar.drawing import finish_turn
from domain.cablecar.events import GameEnded
from domain.cablecar.state import CableCarState
from domain.cablecar.turns import end_turn
from domain.core import Decision, Event
from domain.forfeits import REASON_FORFEIT


def forfeit(decision: Decision[CableCarState], outs: Sequence[Event]) -> None:
    """The seats of ``outs`` go out together: the game ends if one seat (it
    wins) or none is left in, else a turn one of them was playing passes to
    the next seat still in."""
    turn = decision.state.turn
    playing_turn = any(getattr(e, "seat", None) == turn for e in outs)
    for event in outs:
        decision.emit(event)
    left = decision.state.seats_in
    if len(left) <= 1:
        decision.emit(GameEnded(left, REASON_FORFEIT))
    elif playing_turn:
        end_turn(decision, turn)
    elif decision.state.drawing:
        # the seat choosing its draw may have lost its choice with the rider that went out
        finish_turn(decision, turn)
