"""The end of a game: its result and the standings (a tram that arrives wins;
a stalled game has no winner; seats that are out rank below every seat
still in, see :mod:`domain.forfeits`)."""

from __future__ import annotations

from domain.cablecar.state import CableCarState
from domain.core import JSON, Standing
from domain.forfeits import STATUS_CANCELLED, ranked_with_forfeits, standings_of


def result(state: CableCarState) -> dict[str, JSON] | None:
    """``{"winners": [seat], "reason", "players": [{"seat", "standing"}]}``
    once finished, else None (also for a cancelled game)."""
    if not state.finished or state.end_reason == STATUS_CANCELLED:
        return None
    standing = standings_of(state.out)
    players: list[JSON] = [{"seat": seat, "standing": standing[seat]} for seat in range(state.player_count)]
    return {"winners": list(state.winners), "reason": state.end_reason, "players": players}


def standings(state: CableCarState) -> tuple[Standing, ...] | None:
    """Once finished, the winners rank 1, the other seats still in 2 and the
    seats that are out below them; nobody is ranked in a stalled game that
    every seat played to the end."""
    if not state.finished or state.end_reason == STATUS_CANCELLED:
        return None
    won = set(state.winners)
    nobody_out = all(o is None for o in state.out)
    if not won and nobody_out:
        return tuple(Standing(seat=seat, rank=None, winner=False) for seat in range(state.player_count))
    ranks = ranked_with_forfeits([(1 if seat in won else 0,) for seat in range(state.player_count)], state.out)
    return tuple(Standing(seat=seat, rank=ranks[seat], winner=seat in won) for seat in range(state.player_count))
