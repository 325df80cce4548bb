"""The shipped board data: components as the rules list them."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from domain.ttr import GAME
from domain.ttr.board import GRAY, load_board, parse_board, validate_board
from domain.ttr.cards import CARD_TYPES, COLOURS

BOARD = load_board()


def test_components_match_the_rules() -> None:
    assert len(BOARD.full_deck()) == 44
    assert Counter(BOARD.full_deck()) == {**{c: 6 for c in COLOURS}, "ferry": 8}
    assert set(BOARD.transport_cards) == set(CARD_TYPES)
    assert len(BOARD.tickets) == 24
    assert len(BOARD.souvenir_symbols) == 7
    assert len(BOARD.fixed_souvenir_locations) == 5
    assert BOARD.cars_per_player == 20
    assert dict(BOARD.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10}
    assert dict(BOARD.souvenir_points) == {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 6, 6: 9, 7: 12}


def test_routes_are_consistent() -> None:
    ids = [r.id for r in BOARD.routes]
    assert len(ids) == len(set(ids))
    for index, route in enumerate(BOARD.routes):
        assert route.index == index
        assert {route.a, route.b} <= BOARD.location_ids and route.a != route.b
        assert route.color in (*COLOURS, GRAY)
        assert 1 <= route.length <= 5 and 0 <= route.ferries <= 1
        if route.double_of is not None:
            twin = BOARD.routes_by_id[route.double_of]
            assert twin.double_of == route.id
            assert set(twin.ends) == set(route.ends) and twin.length == route.length


def test_alcatraz_is_reachable_only_by_ferry() -> None:
    to_alcatraz = [r for r in BOARD.routes if "alcatraz" in r.ends]
    assert to_alcatraz and all(r.ferries == 1 for r in to_alcatraz)


def test_tickets_join_known_locations() -> None:
    for ticket in BOARD.tickets:
        assert {ticket.a, ticket.b} <= BOARD.location_ids and ticket.points > 0


def test_board_json_is_a_copy_of_the_data() -> None:
    data = GAME.board()
    assert data["id"] == "san-francisco"
    assert len(data["routes"]) == len(BOARD.routes)
    data["routes"].clear()  # callers cannot damage the loaded board
    assert len(GAME.board()["routes"]) == len(BOARD.routes)
    json.dumps(GAME.board())


def test_game_definition_metadata() -> None:
    assert GAME.type_id == "ttr-sf"
    assert GAME.title == "Ticket to Ride: San Francisco"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.rules_version == "ttr-sf/4" and GAME.board_version == "san-francisco/1"
    assert GAME.legacy_rules_versions == ("ttr-sf/1", "ttr-sf/2", "ttr-sf/3")
    assert GAME.event_types["route_claimed"].SCHEMA_VERSION == 3
    for name, cls in GAME.event_types.items():
        assert name == cls.TYPE


def test_inconsistent_board_data_is_rejected() -> None:
    data = copy.deepcopy(dict(BOARD.raw))
    data["routes"][0]["to"] = "nowhere"
    data["routes"][14]["double_of"] = "marina--fort-mason"
    data["tickets"][0]["from"] = "atlantis"
    with pytest.raises(ValueError) as info:
        validate_board(parse_board(data))
    message = str(info.value)
    assert "unknown location" in message and "parallel twin" in message and "ticket T01" in message
