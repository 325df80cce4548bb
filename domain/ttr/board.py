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


@cache
def load_board() -> Board:
    """The San Francisco board shipped with the package (loaded once)."""
    text = resources.files("domain.ttr").joinpath("data", "board.json").read_text(encoding="utf-8")
    return parse_board(json.loads(text))
