"""Parsing action bodies, and bodies of actions."""

from __future__ import annotations

from typing import Any

import pytest

from domain.cablecar import GAME
from domain.cablecar.actions import LayTiles, Placement, Roll, StartRide
from domain.errors import MalformedAction
from tests.unit.cablecar.helpers import act, lay, new_game, place


def test_bodies_parse_and_round_trip() -> None:
    bodies: list[dict[str, Any]] = [
        {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 3, "col": 4, "rotation": 1}]},
        {
            "type": "lay_tiles",
            "placements": [
                {"tile": "curve", "row": 3, "col": 4, "rotation": 1},
                {"tile": "straight", "row": 3, "col": 5, "rotation": 0},
            ],
        },
        {"type": "start_ride"},
        {"type": "start_ride", "from": "Ocean Beach"},
        {"type": "start_ride", "from": "Ocean Beach", "path": [[6, 1], [6, 2]]},
        {"type": "start_ride", "path": [[3, 12], "Ferry Building", [2, 12]]},
        {"type": "roll"},
    ]
    for body in bodies:
        assert GAME.parse_action(body).to_body() == body
    assert GAME.parse_action(bodies[0]) == LayTiles((Placement("curve", 3, 4, 1),))
    assert GAME.parse_action(bodies[5]) == StartRide(None, ((3, 12), "Ferry Building", (2, 12)))
    assert GAME.parse_action({"type": "roll", "expected_version": 3}) == Roll()


@pytest.mark.parametrize(
    "body",
    [
        [],
        {"type": 3},
        {"type": "fly"},
        {"type": "roll", "dice": 2},
        {"type": "lay_tiles"},
        {"type": "lay_tiles", "placements": []},
        {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 1, "col": 1, "rotation": 0}] * 3},
        {"type": "lay_tiles", "placements": ["curve"]},
        {"type": "lay_tiles", "placements": [{"tile": "curve", "row": "1", "col": 1, "rotation": 0}]},
        {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 1, "col": 1, "rotation": True}]},
        {"type": "lay_tiles", "placements": [{"tile": 5, "row": 1, "col": 1, "rotation": 0}]},
        {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 1, "col": 1}]},
        {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 1, "col": 1, "rotation": 0, "x": 1}]},
        {"type": "start_ride", "from": 3},
        {"type": "start_ride", "path": []},
        {"type": "start_ride", "path": [[1, 2, 3]]},
        {"type": "start_ride", "path": [[1.5, 2]]},
        {"type": "start_ride", "path": "north"},
    ],
)
def test_malformed_bodies(body: Any) -> None:
    with pytest.raises(MalformedAction) as info:
        GAME.parse_action(body)
    assert info.value.kind == "invalid_request"


def test_action_of_recovers_each_moves_action() -> None:
    events, state = new_game(2)
    assert GAME.action_of(events[0]) is None
    action = lay(place("straight", 6, 6, 0), place("curve", 8, 8, 1))
    new, _ = act(state, 0, action)
    assert GAME.action_of(new[0]) == (0, action)
    assert all(GAME.action_of(e) is None for e in new[1:])
