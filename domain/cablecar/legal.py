"""``legal_actions``: every ready-to-send action ``decide`` accepts now."""

from __future__ import annotations

from domain.cablecar.actions import LayTiles, Roll, StartRide
from domain.cablecar.drawing import draw_options
from domain.cablecar.network import best_path, line_terminals
from domain.cablecar.pairs import legal_pairs
from domain.cablecar.placement import single_placements
from domain.cablecar.state import CableCarState
from domain.core import Action


def legal_actions(state: CableCarState, seat: int) -> list[Action]:
    """Every action ``seat`` may send now.

    Lay actions: every legal ordered pair (adjacent double exchanges
    included), each placement in the lowest rotation of its distinct track
    layout; single placements only when no pair exists.  ``start_ride`` once
    per terminal (the server picks the shortest path).  After laying, while
    the seat chooses its draw: one ``draw_tile`` per distinct choice.
    """
    if state.finished or seat != state.turn:
        return []
    if state.drawing:
        return list(draw_options(state, seat))
    player = state.players[seat]
    if player.riding:
        return [Roll()]
    actions: list[Action] = []
    path = best_path(state.board, player.line, player.route)
    if path is not None:
        actions += [StartRide(t.name) for t in line_terminals(player.line)]
    pairs = legal_pairs(state.board, player.hand)
    if pairs:
        actions += [LayTiles(pair) for pair in pairs]
    else:
        actions += [LayTiles((p,)) for p in single_placements(state.board, player.hand)]
    return actions
