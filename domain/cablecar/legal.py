"""``legal_actions``: every ready-to-send action ``decide`` accepts now."""

from __future__ import annotations

from collections.abc import Sequence

from domain.cablecar.actions import LayTiles, Roll, StartRide
from domain.cablecar.candidates import single_placements
from domain.cablecar.drawing import draw_options
from domain.cablecar.geometry import on_board, square_index
from domain.cablecar.network import best_path, line_terminals
from domain.cablecar.pairs import PairTables
from domain.cablecar.state import CableCarState
from domain.cablecar.turns import ride_due
from domain.core import Action
from domain.lazy import Runs, concat


def legal_actions(state: CableCarState, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may send now.

    Lay actions: every legal ordered pair (adjacent double exchanges
    included), each placement in the lowest rotation of its distinct track
    layout; single placements only when no pair exists.  ``start_ride`` once
    per terminal (the server picks the shortest path); when the ride is due
    (``cable-car/4``: the network is complete at the start of the turn) they
    are the only actions.  A laying turn's pairs are :class:`~domain.lazy.Runs`,
    one run per first placement, counted without being listed: a page or a
    sample produces only the runs it reads.  After laying, while the seat
    chooses its draw: one ``draw_tile`` per distinct choice.
    """
    if state.finished or seat != state.turn:
        return []
    if state.drawing:
        return list(draw_options(state, seat))
    player = state.players[seat]
    if player.riding:
        return [Roll()]
    rides: list[Action] = []
    path = best_path(state.board, player.line, player.route)
    if path is not None:
        rides = [StartRide(t.name) for t in line_terminals(player.line)]
        if ride_due(state, seat):
            return rides  # nothing else is legal
    _, lays = _lays(state)
    return concat(rides, lays) if lays is not None else rides + _singles(state)


def legal_actions_at(state: CableCarState, seat: int, square: tuple[int, int]) -> Sequence[Action]:
    """The actions of :func:`legal_actions` whose first placement is on
    ``square`` (row, col), in the same order (a bot can build its turn square
    by square)."""
    if state.finished or seat != state.turn or state.drawing or state.players[seat].riding:
        return []
    if ride_due(state, seat) or not on_board(*square):
        return []
    target = square_index(*square)
    tables, lays = _lays(state)
    if lays is None:
        return [a for a in _singles(state) if isinstance(a, LayTiles) and a.placements[0].square == square]
    firsts = tables.firsts
    return lays.select(lambda k: firsts[k][0] == target)


def _lays(state: CableCarState) -> tuple[PairTables, Runs[Action] | None]:
    """The turn's tables, and its pairs as runs per first placement (None when there is none)."""
    tables = PairTables(state.board, state.players[state.turn].hand)
    if next(tables.chunks(), None) is None:
        return tables, None
    return tables, Runs(tables.first_counts, tables.pairs_of, LayTiles)


def _singles(state: CableCarState) -> list[Action]:
    return [LayTiles((p,)) for p in single_placements(state.board, state.players[state.turn].hand)]
