"""The end of a game: its result and the standings (a tram that arrives wins;
a stalled game has no winner)."""

from __future__ import annotations

from domain.cablecar.state import CableCarState
from domain.core import JSON, Standing


def result(state: CableCarState) -> dict[str, JSON] | None:
    """``{"winners": [seat], "reason"}`` once finished, else None."""
    if not state.finished:
        return None
    return {"winners": list(state.winners), "reason": state.end_reason}


def standings(state: CableCarState) -> tuple[Standing, ...] | None:
    """Once finished, the winners rank 1 and everybody else 2; nobody is
    ranked when nobody won (a stalled game)."""
    if not state.finished:
        return None
    won = set(state.winners)
    return tuple(
        Standing(seat=seat, rank=(1 if seat in won else 2) if won else None, winner=seat in won)
        for seat in range(state.player_count)
    )
