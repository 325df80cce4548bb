"""Drawing back up to a full hand.

After laying, a player draws until it holds ``hand_size`` (5) tiles, so each
exchange (whose removed tile went to the hand) means one draw less.  Draws
are automatic, with no choice to make:

1. from the top of the face-down pile, in order;
2. once the pile is empty, from the open hands of riding players (who lay no
   more tiles): riders in clockwise order starting after the drawing seat,
   each giving the tiles at the front of its hand (the longest held) until
   the draw is complete or every rider's hand is empty.

When neither source has tiles left the player plays on with a short hand.
"""

from __future__ import annotations

from domain.cablecar.components import COMPONENTS
from domain.cablecar.events import TilesDrawn
from domain.cablecar.state import CableCarState

HAND_SIZE = COMPONENTS.hand_size


def draw_up(state: CableCarState, seat: int) -> TilesDrawn | None:
    """The draw ``seat`` makes after laying (None when it needs or finds nothing)."""
    need = HAND_SIZE - len(state.players[seat].hand)
    if need <= 0:
        return None
    from_pile = state.pile[:need]
    need -= len(from_pile)
    from_riders: list[tuple[int, str]] = []
    other = state.next_seat(seat)
    while need > 0 and other != seat:
        rider = state.players[other]
        if rider.riding:
            taken = rider.hand[:need]
            from_riders.extend((other, tile) for tile in taken)
            need -= len(taken)
        other = state.next_seat(other)
    if not from_pile and not from_riders:
        return None
    return TilesDrawn(seat, tuple(from_pile), tuple(from_riders))
