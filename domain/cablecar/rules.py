"""Deciding actions: the events each accepted action produces, and the legal actions.

Turn structure
--------------
Seats act one at a time, clockwise from the start seat.  On its turn a seat
that is not riding either lays tiles (``lay_tiles``: two placements, then an
automatic draw, ending the turn) or, when its network is complete, starts its
ride (``start_ride``) and then rolls in the same turn.  A riding seat rolls
(``roll``), which ends its turn unless its tram arrives, which ends the game.

Automatic events after each turn (**rulings**): the next seat that can
neither lay a tile nor start its ride passes (``turn_passed``); when every
seat has passed in a row nothing can ever change, and the game ends without
a winner (``game_ended`` with reason ``stalled``).
"""

from __future__ import annotations

from domain.cablecar.actions import LayTiles, Roll, StartRide
from domain.cablecar.drawing import draw_up
from domain.cablecar.events import (
    DieRolled,
    GameEnded,
    RideStarted,
    TilesLaid,
    TurnEnded,
    TurnPassed,
)
from domain.cablecar.evolve import evolve
from domain.cablecar.geometry import square_of
from domain.cablecar.network import RidePath, best_path, line_terminals, trace_path
from domain.cablecar.pairs import legal_pairs
from domain.cablecar.placement import (
    Laid,
    can_lay,
    check_turn,
    has_legal_pair,
    single_placements,
)
from domain.cablecar.ride import DIE_FACES, target
from domain.cablecar.state import GameState
from domain.core import JSON, Action, Event
from domain.errors import GameFinished, IllegalAction, NotYourTurn

REASON_CANNOT_LAY = "no_legal_placement"
REASON_ARRIVED = "destination_reached"
REASON_STALLED = "stalled"


def _fold(state: GameState, events: list[Event]) -> GameState:
    for event in events:
        state = evolve(state, event)
    return state


def can_act(state: GameState, seat: int) -> bool:
    """Whether ``seat`` has any move at the start of its turn (else it passes)."""
    player = state.players[seat]
    if player.riding:
        return True
    if can_lay(state.board, player.hand):
        return True
    return best_path(state.board, player.line, player.route) is not None


def turn_transition(state: GameState, seat: int) -> list[Event]:
    """End ``seat``'s turn, then pass every following seat that cannot act.

    Ends the game (``stalled``) once every seat has passed in a row.
    """
    events: list[Event] = []
    current = seat
    while True:
        following = state.next_seat(current)
        step: list[Event] = [TurnEnded(current, following)]
        state = _fold(state, step)
        events += step
        if can_act(state, following):
            return events
        passed: list[Event] = [TurnPassed(following, REASON_CANNOT_LAY)]
        state = _fold(state, passed)
        events += passed
        if state.passes >= state.player_count:
            return [*events, GameEnded((), REASON_STALLED)]
        current = following


def opening_events(state: GameState) -> list[Event]:
    """Passes due right after setup (when the first seat cannot act)."""
    if can_act(state, state.turn):
        return []
    passed: list[Event] = [TurnPassed(state.turn, REASON_CANNOT_LAY)]
    return passed + turn_transition(_fold(state, passed), state.turn)


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


def _lay(state: GameState, seat: int, action: LayTiles) -> list[Event]:
    player = state.players[seat]
    if player.riding:
        raise IllegalAction("already_riding", "a riding player lays no more tiles; it rolls")
    if len(action.placements) == 1 and has_legal_pair(state.board, player.hand):
        raise IllegalAction("must_lay_two", "two tiles must be laid while a legal pair exists")
    laid = check_turn(state.board, player.hand, action.placements)
    events: list[Event] = [TilesLaid(seat, tuple(_laid_payload(x) for x in laid))]
    state = _fold(state, events)
    drawn = draw_up(state, seat)
    if drawn is not None:
        events.append(drawn)
        state = evolve(state, drawn)
    return events + turn_transition(state, seat)


def _chosen_path(state: GameState, seat: int, action: StartRide) -> RidePath:
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


def _start_ride(state: GameState, seat: int, action: StartRide) -> list[Event]:
    player = state.players[seat]
    if player.riding:
        raise IllegalAction("already_riding", "this player's tram is already riding")
    path = _chosen_path(state, seat, action)
    spaces: tuple[JSON, ...] = tuple(square_of(s) if isinstance(s, int) else s for s in path.spaces)
    return [
        RideStarted(seat, player.line, player.route_card, player.route, path.origin, path.destination, spaces)
    ]


def _roll(state: GameState, seat: int) -> list[Event]:
    player = state.players[seat]
    if player.ride is None:
        raise IllegalAction("not_riding", "only a riding player rolls the die; lay tiles or start the ride")
    face, rng = state.rng.choice(DIE_FACES)
    end = target(player.ride, face, state.board.stop_tile_squares())
    events: list[Event] = [DieRolled(seat, face, rng.counter, player.ride.position, end)]
    if end == len(player.ride.spaces) - 1:
        return [*events, GameEnded((seat,), REASON_ARRIVED)]
    return events + turn_transition(_fold(state, events), seat)


def decide(state: GameState, seat: int, action: Action) -> list[Event]:
    """The events ``action`` by ``seat`` produces; raises a DomainError if refused."""
    if state.finished:
        raise GameFinished()
    if seat != state.turn:
        raise NotYourTurn()
    if isinstance(action, LayTiles):
        return _lay(state, seat, action)
    if isinstance(action, StartRide):
        return _start_ride(state, seat, action)
    if isinstance(action, Roll):
        return _roll(state, seat)
    raise IllegalAction("unknown_action", f"{action.TYPE!r} is not a cable-car action")


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may send now.

    Lay actions: every legal ordered pair (adjacent double exchanges
    included), each placement in the lowest rotation of its distinct track
    layout; single placements only when no pair exists.  ``start_ride`` once
    per terminal (the server picks the shortest path).
    """
    if state.finished or seat != state.turn:
        return []
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


def active_seats(state: GameState) -> tuple[int, ...]:
    """The seats that may act now: the seat whose turn it is (none once finished)."""
    return () if state.finished else (state.turn,)
