"""Moving a tram along its fixed ride path (see :mod:`domain.cablecar.network` for spaces)."""

from __future__ import annotations

from collections.abc import Set

from domain.cablecar.components import COMPONENTS
from domain.cablecar.state import Ride

#: the die's faces; ``H`` is the stop symbol
DIE_FACES: tuple[str, ...] = COMPONENTS.die
STOP_FACE = "H"


def target(ride: Ride, face: str, stop_tiles: Set[int]) -> int:
    """The space index a tram on ``ride`` reaches with die ``face``.

    A number moves that many spaces forward; surplus pips at the destination
    terminal are lost.  ``H`` moves to the next space ahead that is a stop
    tile (of any stop, on the card or not) or a terminal (another line's loop
    driven over, or the destination).
    """
    last = len(ride.spaces) - 1
    if face == STOP_FACE:
        for i in range(ride.position + 1, last + 1):
            space = ride.spaces[i]
            if isinstance(space, str) or space in stop_tiles:
                return i
        return last
    return min(ride.position + int(face), last)
