"""``legal_actions``: every ready-to-send action ``decide`` accepts now."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain

from domain.cablecar.actions import LayTiles, Roll, StartRide
from domain.cablecar.drawing import draw_options
from domain.cablecar.network import best_path, line_terminals
from domain.cablecar.pairs import PairTables
from domain.cablecar.placement import single_placements
from domain.cablecar.state import CableCarState
from domain.cablecar.turns import ride_due
from domain.core import Action
from domain.lazy import LazySequence


def legal_actions(state: CableCarState, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may send now.

    Lay actions: every legal ordered pair (adjacent double exchanges
    included), each placement in the lowest rotation of its distinct track
    layout; single placements only when no pair exists.  ``start_ride`` once
    per terminal (the server picks the shortest path); when the ride is due
    (``cable-car/4``: the network is complete at the start of the turn) they
    are the only actions.  A laying turn's list
    is a :class:`~domain.lazy.LazySequence`: its pairs are generated as far
    as they are read, so a first page does not wait for all of them.  After
    laying, while the seat chooses its draw: one ``draw_tile`` per distinct
    choice.
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
    tables = PairTables(state.board, player.hand)
    if next(tables.chunks(), None) is None:
        return rides + [LayTiles((p,)) for p in single_placements(state.board, player.hand)]
    lays: Iterator[Action] = (LayTiles(pair) for pair in tables.pairs())
    return LazySequence(chain(rides, lays), lambda: len(rides) + tables.count())
