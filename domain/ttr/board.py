"""The static San Francisco board: locations, routes, tickets and score tables.

The board is read once from ``data/board.json`` (a copy of the reference
board shipped inside the package) and exposed as frozen values.  Routes and
tickets are looked up by id; every route also has a dense index so the game
state can keep claims in a tuple.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

BOARD_VERSION = "san-francisco/1"
GRAY = "gray"


@dataclass(frozen=True, slots=True)
class Location:
    """A place on the map."""

    id: str
    name: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Route:
    """A chain of ``length`` spaces between two adjacent locations.

    ``color`` is a card colour or ``gray`` (any one colour); ``ferries`` is the
    number of ferry symbols (each needs a ferry card); ``double_of`` names the
    parallel route of a double route.
    """

    index: int
    id: str
    a: str
    b: str
    length: int
    color: str
    ferries: int
    double_of: str | None

    @property
    def ends(self) -> tuple[str, str]:
        """The two connected locations."""
        return (self.a, self.b)


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket: join ``a`` and ``b`` for ``points``."""

    id: str
    a: str
    b: str
    points: int


@dataclass(frozen=True, eq=False)
class Board:
    """Everything static about the game: map, components and score tables."""

    locations: tuple[Location, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    route_points: MappingProxyType[int, int]
    souvenir_points: MappingProxyType[int, int]
    souvenir_symbols: tuple[str, ...]
    fixed_souvenir_locations: tuple[str, ...]
    transport_cards: MappingProxyType[str, int]
    cars_per_player: int
    seat_colors: tuple[str, ...]
    location_ids: frozenset[str]
    routes_by_id: MappingProxyType[str, Route]
    tickets_by_id: MappingProxyType[str, Ticket]
    raw: MappingProxyType[str, Any]

    def route(self, route_id: str) -> Route | None:
        """The route with this id, or None."""
        return self.routes_by_id.get(route_id)

    def ticket(self, ticket_id: str) -> Ticket:
        """The ticket with this id (KeyError if unknown)."""
        return self.tickets_by_id[ticket_id]

    def full_deck(self) -> tuple[str, ...]:
        """All transport cards in a fixed, canonical order (before shuffling)."""
        return tuple(colour for colour, count in self.transport_cards.items() for _ in range(count))

    def to_json(self) -> dict[str, Any]:
        """A deep copy of the board data as published to clients."""
        return copy.deepcopy(dict(self.raw))


def parse_board(data: dict[str, Any]) -> Board:
    """Build a :class:`Board` from board JSON data (the reference format)."""
    routes = tuple(
        Route(
            index=i,
            id=r["id"],
            a=r["from"],
            b=r["to"],
            length=int(r["length"]),
            color=r["color"],
            ferries=int(r["ferries"]),
            double_of=r["double_of"],
        )
        for i, r in enumerate(data["routes"])
    )
    locations = tuple(Location(d["id"], d["name"], float(d["x"]), float(d["y"])) for d in data["locations"])
    tickets = tuple(Ticket(t["id"], t["from"], t["to"], int(t["points"])) for t in data["tickets"])
    return Board(
        locations=locations,
        routes=routes,
        tickets=tickets,
        route_points=MappingProxyType({int(k): int(v) for k, v in data["route_points"].items()}),
        souvenir_points=MappingProxyType({int(k): int(v) for k, v in data["souvenir_points"].items()}),
        souvenir_symbols=tuple(data["souvenir_symbols"]),
        fixed_souvenir_locations=tuple(data["fixed_souvenir_locations"]),
        transport_cards=MappingProxyType({k: int(v) for k, v in data["transport_cards"].items()}),
        cars_per_player=int(data["cars_per_player"]),
        seat_colors=tuple(data["seat_colors"]),
        location_ids=frozenset(loc.id for loc in locations),
        routes_by_id=MappingProxyType({r.id: r for r in routes}),
        tickets_by_id=MappingProxyType({t.id: t for t in tickets}),
        raw=MappingProxyType(data),
    )


def validate_board(board: Board) -> None:
    """Raise ValueError if the board data is inconsistent."""
    problems: list[str] = []
    ids = board.location_ids
    for route in board.routes:
        if route.a not in ids or route.b not in ids:
            problems.append(f"route {route.id} joins an unknown location")
        if route.length not in board.route_points:
            problems.append(f"route {route.id} has a length without points")
        if not 0 <= route.ferries <= route.length:
            problems.append(f"route {route.id} has {route.ferries} ferries for {route.length} spaces")
        twin = board.routes_by_id.get(route.double_of) if route.double_of else None
        if route.double_of is not None and (
            twin is None or twin.double_of != route.id or set(twin.ends) != set(route.ends)
        ):
            problems.append(f"route {route.id}: double_of {route.double_of!r} is not its parallel twin")
    for ticket in board.tickets:
        if ticket.a not in ids or ticket.b not in ids:
            problems.append(f"ticket {ticket.id} names an unknown location")
    if not set(board.fixed_souvenir_locations) <= ids:
        problems.append("a fixed souvenir location is unknown")
    if len(board.souvenir_symbols) != len(board.fixed_souvenir_locations) + 2:
        problems.append("there must be exactly two set-aside souvenir symbols")
    if len(board.routes_by_id) != len(board.routes) or len(board.tickets_by_id) != len(board.tickets):
        problems.append("route and ticket ids must be unique")
    if problems:
        raise ValueError("invalid board: " + "; ".join(problems))


@cache
def load_board() -> Board:
    """The San Francisco board shipped with the package (loaded once)."""
    text = resources.files("domain.ttr").joinpath("data", "board.json").read_text(encoding="utf-8")
    board = parse_board(json.loads(text))
    validate_board(board)
    return board


def board_json() -> dict[str, Any]:
    """The static board (locations, routes, tickets, tables) for clients."""
    return load_board().to_json()
