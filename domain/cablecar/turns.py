"""Turn order: whose turn it is, handing over after a turn, automatic passes.

Seats act one at a time, clockwise from the start seat.  **Rulings**: the
next seat that can neither lay a tile nor start its ride passes
(``turn_passed``); when every seat still in has passed in a row nothing can
ever change, and the game ends without a winner (``game_ended`` with reason
``stalled``).  A seat that resigned or timed out is skipped (see
:mod:`domain.forfeits`): its tiles stay on the board, its open hand stays
as it is, and when one seat is left in, that seat wins (reason ``forfeit``).
The game has no setup choices, so a forfeit owes no default choice.

Since ``cable-car/4`` a seat whose network is complete at the start of its
turn must start its ride (rulebook: "måste han/hon avslöja sin hemliga
färdväg", *must reveal its secret route*): :func:`ride_due`.
"""

from __future__ import annotations

from domain.cablecar.candidates import can_lay
from domain.cablecar.events import TURN_END_CARRIERS, GameEnded, TurnEnded, TurnPassed
from domain.cablecar.network import best_path
from domain.cablecar.state import RULEBOOK_DRAW_AND_RIDE, TURN_END_IN_MOVE, CableCarState
from domain.core import Decision
from domain.turnends import carry_turn_end

REASON_CANNOT_LAY = "no_legal_placement"
REASON_STALLED = "stalled"


def can_act(state: CableCarState, seat: int) -> bool:
    """Whether ``seat`` has any move at the start of its turn (else it passes)."""
    player = state.players[seat]
    if player.riding:
        return True
    if can_lay(state.board, player.hand):
        return True
    return best_path(state.board, player.line, player.route) is not None


def ride_due(state: CableCarState, seat: int) -> bool:
    """Whether ``seat``, at the start of its turn, must start its ride: the rules are
    ``cable-car/4`` or later, it is not riding and its network is complete (whoever
    completed it).  It may then only start the ride or resign (``ride_due``).

    "The start of its turn" is any moment before it has laid this turn (``drawing``
    is set from its lay until the turn ends): nothing else changes the board in
    between, so judging when it acts is judging when its turn began."""
    if state.rules < RULEBOOK_DRAW_AND_RIDE or state.drawing or state.turn != seat:
        return False
    player = state.players[seat]
    return not player.riding and best_path(state.board, player.line, player.route) is not None


def end_turn(decision: Decision[CableCarState], seat: int) -> None:
    """End ``seat``'s turn (in the move's last event where the rules record
    it there, else with ``turn_ended``), then pass every following seat that
    cannot act, each pass ending with a ``turn_ended`` of its own.

    Ends the game (``stalled``) once every seat has passed in a row.
    """
    if not (decision.state.rules >= TURN_END_IN_MOVE and carry_turn_end(decision, TURN_END_CARRIERS)):
        decision.emit(TurnEnded(seat, decision.state.next_seat(seat)))
    while not can_act(decision.state, decision.state.turn):
        passing = decision.state.turn
        decision.emit(TurnPassed(passing, REASON_CANNOT_LAY))
        if decision.state.passes >= len(decision.state.seats_in):
            decision.emit(GameEnded((), REASON_STALLED))
            return
        decision.emit(TurnEnded(passing, decision.state.next_seat(passing)))


def open_play(decision: Decision[CableCarState]) -> None:
    """The passes due right after setup (when the first seat cannot act)."""
    first = decision.state.turn
    if can_act(decision.state, first):
        return
    decision.emit(TurnPassed(first, REASON_CANNOT_LAY))
    end_turn(decision, first)


def active_seats(state: CableCarState) -> tuple[int, ...]:
    """The seats that may act now: the seat whose turn it is (none once finished)."""
    return () if state.finished else (state.turn,)
