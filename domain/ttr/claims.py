"""Whether a seat may claim a route (apart from paying for it), and which
souvenirs claiming it would offer."""

from __future__ import annotations

from domain.errors import IllegalAction
from domain.ttr.board import Route, load_board
from domain.ttr.payment import can_pay
from domain.ttr.state import TtrState


def claim_refusal(state: TtrState, seat: int, route: Route) -> IllegalAction | None:
    """The error claiming ``route`` by ``seat`` meets before payment, or None.

    Checks, in order: the route is free; double routes (never both by one
    player; with 2 players the twin closes once one is claimed); enough cars.
    """
    owner = state.claimed[route.index]
    if owner is not None:
        return IllegalAction("route_taken", f"route {route.id} is already claimed by seat {owner}")
    if route.double_of is not None:
        twin = load_board().routes_by_id[route.double_of]
        twin_owner = state.claimed[twin.index]
        if twin_owner == seat:
            return IllegalAction(
                "double_route_same_player",
                f"a player may never claim both routes of a double route ({twin.id} is already yours)",
            )
        if twin_owner is not None and state.num_players == 2:
            return IllegalAction(
                "double_route_closed",
                f"in a 2-player game a double route closes once one of its routes is claimed ({twin.id})",
            )
    cars = state.players[seat].cars
    if cars < route.length:
        return IllegalAction(
            "not_enough_cars", f"route {route.id} needs {route.length} cars; seat {seat} has {cars} left"
        )
    return None


def souvenir_options(state: TtrState, seat: int, route: Route) -> tuple[str, ...]:
    """Symbols the seat could take by claiming ``route``: stacks at either end
    with tokens left whose symbol the seat does not hold yet."""
    held = state.players[seat].souvenirs
    options: list[str] = []
    for stack in state.stacks:
        if stack.count > 0 and stack.symbol not in held and stack.location in route.ends:
            options.append(stack.symbol)
    return tuple(options)


def claimable_routes(state: TtrState, seat: int) -> list[Route]:
    """Routes ``seat`` may claim now and can pay for."""
    hand = state.players[seat].hand
    return [
        route
        for route in load_board().routes
        if state.claimed[route.index] is None
        and claim_refusal(state, seat, route) is None
        and can_pay(route, hand)
    ]
