"""The game definition as the registry and the service see it."""

from __future__ import annotations

from domain.cablecar import GAME
from domain.core import GameDefinition
from domain.registry import game_definition
from tests.unit.cablecar.helpers import new_game


def test_the_registry_serves_cable_car() -> None:
    assert game_definition("cable-car") is GAME
    assert isinstance(GAME, GameDefinition)


def test_event_types_cover_every_event_of_a_game() -> None:
    events, _ = new_game(2)
    assert set(GAME.event_types) == {
        "game_set_up",
        "tiles_laid",
        "tiles_drawn",
        "tile_drawn",
        "turn_passed",
        "turn_ended",
        "ride_started",
        "die_rolled",
        "game_ended",
        "seat_resigned",
        "seat_timed_out",
        "game_cancelled",
        "seat_token_rotated",
        "events_quarantined",
        "game_scheduled",
        "game_started",
    }
    assert all(GAME.event_types[e.TYPE] is type(e) for e in events)
