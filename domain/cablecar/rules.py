"""The rule of each move (:data:`MOVES`): the events an accepted action
produces, or the rule it breaks.

On its turn a seat that is not riding either lays tiles (``lay_tiles``: two
placements, then the draw back up: automatic, or one ``draw_tile`` per tile
when a rider's open hand offers a choice, see :mod:`domain.cablecar.drawing`;
the draw ends the turn) or, when its network is
complete, starts its ride (``start_ride``) and then rolls in the same turn.
Since ``cable-car/4`` a seat whose network is complete at the start of its
turn may only start its ride (or resign): anything else is refused
(``ride_due``, see :func:`domain.cablecar.turns.ride_due`); under ``/1``-``/3``
it may also keep laying.  A ride never starts in the turn that completed the
network: the lay ends the turn (or leaves only ``draw_tile``).
A riding seat rolls (``roll``), which ends its turn unless its tram arrives,
which ends the game.  Handing the turn over (and automatic passes) is
:mod:`domain.cablecar.turns`; the game-over and seat-range guards run first,
in :meth:`domain.core.GameDefinition.decide`.
"""

from __future__ import annotations

from domain.cablecar.actions import DrawTile, LayTiles, Roll, StartRide
from domain.cablecar.candidates import has_legal_pair
from domain.cablecar.drawing import check_draw, finish_turn
from domain.cablecar.events import DieRolled, GameEnded, RideStarted, TilesLaid
from domain.cablecar.geometry import square_of
from domain.cablecar.network import RidePath, best_path, line_terminals, trace_path
from domain.cablecar.outs import forfeit
from domain.cablecar.placement import Laid, check_turn
from domain.cablecar.ride import DIE_FACES, target
from domain.cablecar.state import CableCarState
from domain.cablecar.turns import end_turn, ride_due
from domain.core import JSON, Decision, Move
from domain.errors import IllegalAction, NotYourTurn
from domain.forfeits import resign_move, standings_of

REASON_ARRIVED = "destination_reached"


def _laid_payload(laid: Laid) -> dict[str, JSON]:
    p = laid.placement
    replaced = laid.replaced
    return {
        "tile": p.tile,
        "row": p.row,
        "col": p.col,
        "rotation": p.rotation,
        "replaced": None if replaced is None else {"tile": replaced.tile, "rotation": replaced.rotation},
        "stops": laid.stops,
    }


def _own_turn(state: CableCarState, seat: int, drawing_ok: bool = False, starts_ride: bool = False) -> None:
    """Refuse an action out of turn, during a draw choice (unless ``drawing_ok``), or
    while the seat's ride is due (unless the action starts it: ``starts_ride``)."""
    if seat != state.turn:
        raise NotYourTurn()
    if state.drawing and not drawing_ok:
        raise IllegalAction("draw_in_progress", "the tiles have been laid: choose what to draw (draw_tile)")
    if not starts_ride and ride_due(state, seat):
        raise IllegalAction(
            "ride_due", "the network is complete: the inaugural ride is due (start_ride), or resign"
        )


def _lay(decision: Decision[CableCarState], seat: int, action: LayTiles) -> None:
    state = decision.state
    _own_turn(state, seat)
    player = state.players[seat]
    if player.riding:
        raise IllegalAction("already_riding", "a riding player lays no more tiles; it rolls")
    if len(action.placements) == 1 and has_legal_pair(state.board, player.hand):
        raise IllegalAction("must_lay_two", "two tiles must be laid while a legal pair exists")
    laid = check_turn(state.board, player.hand, action.placements)
    decision.emit(TilesLaid(seat, tuple(_laid_payload(x) for x in laid)))
    finish_turn(decision, seat)


def _draw_tile(decision: Decision[CableCarState], seat: int, action: DrawTile) -> None:
    _own_turn(decision.state, seat, drawing_ok=True)
    decision.emit(check_draw(decision.state, seat, action))
    finish_turn(decision, seat)


def _chosen_path(state: CableCarState, seat: int, action: StartRide) -> RidePath:
    player = state.players[seat]
    names = [t.name for t in line_terminals(player.line)]
    origin = action.origin
    if origin is None and action.path:
        first = action.path[0]
        origin = next(
            (
                t.name
                for t in line_terminals(player.line)
                if not isinstance(first, str) and first in t.squares
            ),
            None,
        )
        if origin is None:
            raise IllegalAction(
                "bad_path", "the path must start on a square next to one of the line's terminals"
            )
    if origin is not None and origin not in names:
        raise IllegalAction("not_your_terminal", f"{origin!r} is not a terminal of this player's line")
    shortest = best_path(state.board, player.line, player.route, origin)
    if shortest is None:
        raise IllegalAction(
            "network_incomplete",
            "no track joins the line's terminals through every stop tile of the route without a forbidden turn",
        )
    if action.path is None:
        return shortest
    assert origin is not None
    return trace_path(state.board, player.line, player.route, origin, action.path)


def _start_ride(decision: Decision[CableCarState], seat: int, action: StartRide) -> None:
    state = decision.state
    _own_turn(state, seat, starts_ride=True)
    player = state.players[seat]
    if player.riding:
        raise IllegalAction("already_riding", "this player's tram is already riding")
    path = _chosen_path(state, seat, action)
    spaces: tuple[JSON, ...] = tuple(square_of(s) if isinstance(s, int) else s for s in path.spaces)
    decision.emit(
        RideStarted(seat, player.line, player.route_card, player.route, path.origin, path.destination, spaces)
    )


def _roll(decision: Decision[CableCarState], seat: int, action: Roll) -> None:
    state = decision.state
    _own_turn(state, seat)
    player = state.players[seat]
    if player.ride is None:
        raise IllegalAction("not_riding", "only a riding player rolls the die; lay tiles or start the ride")
    face, rng = state.rng.choice(DIE_FACES)
    end = target(player.ride, face, state.board.stop_tile_squares())
    decision.emit(DieRolled(seat, face, rng.counter, player.ride.position, end))
    if end == len(player.ride.spaces) - 1:
        decision.emit(GameEnded((seat,), REASON_ARRIVED))
    else:
        end_turn(decision, seat)


#: every move of the game, in the order clients list them
MOVES: tuple[Move[CableCarState], ...] = (
    Move(LayTiles, _lay),
    Move(StartRide, _start_ride),
    Move(Roll, _roll),
    resign_move(forfeit, lambda state: standings_of(state.out)),
    Move(DrawTile, _draw_tile),
)
