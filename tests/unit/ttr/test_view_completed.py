"""A seat's view marks which of its kept tickets its routes already complete."""

from __future__ import annotations

import dataclasses

from domain.core import GameConfig, replay
from domain.ttr import GAME


def test_me_tickets_carry_completed() -> None:
    state = replay(GAME, GAME.setup(GameConfig(("a", "b"), "completed-view", 0)))
    ticket = "T11"  # fishermans-wharf -> financial-district
    board_routes = ("fishermans-wharf--north-beach", "north-beach--chinatown", "chinatown--financial-district")
    p0 = dataclasses.replace(state.players[0], tickets=(ticket,), routes=())
    open_state = dataclasses.replace(state, players=(p0, *state.players[1:]))
    mine = GAME.view(open_state, 0)["me"]["tickets"]
    assert mine == [{"id": "T11", "from": "fishermans-wharf", "to": "financial-district", "points": 4,
                     "completed": False}]
    p0 = dataclasses.replace(p0, routes=board_routes)
    done_state = dataclasses.replace(state, players=(p0, *state.players[1:]))
    assert GAME.view(done_state, 0)["me"]["tickets"][0]["completed"] is True
    assert "tickets" not in GAME.view(done_state, 1)["players"][0]  # still secret to others
