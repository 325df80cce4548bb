"""What each seat may see: views, redacted events, secrets revealed by the ride or the end."""

from __future__ import annotations

import dataclasses
import json

from domain.cablecar import GAME
from domain.cablecar.actions import StartRide
from domain.cablecar.events import GameSetUp
from tests.unit.cablecar.helpers import act, board_of, lay, new_game, place, presidio_route_board, state_of


def test_a_seat_sees_its_own_secrets_and_nobody_elses() -> None:
    events, state = new_game(3)
    mine = GAME.view(state, 1)
    json.dumps(mine)
    assert mine["me"] == {
        "seat": 1,
        "line": state.players[1].line,
        "route": list(state.players[1].route),
        "route_card": state.players[1].route_card,
        "terminals": mine["me"]["terminals"],
    }
    assert len(mine["me"]["terminals"]) == 2
    for player in mine["players"]:
        assert player["line"] is None and player["route"] is None
        assert player["hand"] == ["straight", "straight", "straight", "curve", "curve"]
        assert player["riding"] is False and player["tram"] is None and player["last_roll"] is None
    assert mine["status"] == "playing" and mine["active_seats"] == [0] and mine["turn"] == 0
    assert mine["tiles"] == [] and mine["pile_count"] == 111
    assert "me" not in GAME.view(state, None)
    assert "result" not in mine


def test_the_setup_event_is_redacted_per_seat() -> None:
    events, state = new_game(3)
    setup = events[0]
    assert isinstance(setup, GameSetUp)
    seen = GAME.redact(state, setup, 1)
    json.dumps(seen)
    assert seen["lines"] == [None, setup.lines[1], None]
    assert seen["routes"] == [None, list(setup.routes[1] or ()), None]
    assert seen["route_cards"] == [None, setup.route_cards[1], None]
    assert seen["pile"] is None and seen["rng_key"] is None
    assert seen["pile_count"] == 111 and seen["hands"][0] == [
        "straight",
        "straight",
        "straight",
        "curve",
        "curve",
    ]
    spectator = GAME.redact(state, setup, None)
    assert spectator["lines"] == [None, None, None]
    # other events are public
    laid, after = act(state, 0, lay(place("straight", 6, 6, 0), place("straight", 8, 8, 0)))
    assert GAME.redact(after, laid[0], 2) == laid[0].to_payload()


def test_everything_is_revealed_at_the_end() -> None:
    events, state = new_game(2)
    over = dataclasses.replace(state, finished=True)
    seen = GAME.redact(over, events[0], None)
    assert seen["lines"] == list(events[0].lines)  # type: ignore[attr-defined]
    assert seen["pile"] is not None and seen["rng_key"] is not None
    assert all(p["line"] is not None for p in GAME.view(over, None)["players"])


def test_a_riders_cards_become_public() -> None:
    board = board_of(presidio_route_board(), {"H": (4, 10), "M": (3, 6)})
    hand = ("straight",) * 5
    state = state_of(
        board, hands=(hand, hand, hand), lines=("3", "1", "2"), routes=(("H", "M"), ("A",), ("B",))
    )
    _, after = act(state, 0, StartRide())
    view = GAME.view(after, 2)
    assert view["players"][0]["line"] == "3" and view["players"][0]["route"] == ["H", "M"]
    assert view["players"][1]["line"] is None
    ride = view["players"][0]["ride"]
    assert ride["from"] == "Presidio" and ride["to"] == "Mission Bay"
    assert ride["position"] == 0 and ride["length"] == 27
    assert ride["spaces"][0] == "Presidio" and ride["spaces"][1] == [3, 1]


def test_tiles_in_the_view() -> None:
    _, state = new_game(2)
    _, after = act(state, 0, lay(place("straight", 6, 6, 2), place("curve", 8, 8, 3)))
    assert GAME.view(after, None)["tiles"] == [
        {"row": 6, "col": 6, "tile": "straight", "rotation": 2},
        {"row": 8, "col": 8, "tile": "curve", "rotation": 3},
    ]
