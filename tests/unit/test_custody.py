"""The custody events (``domain.custody``) in every registered game: listed
with the game's own events, decoded from their payloads, and passed through by
its state unchanged, whatever the state (set up, mid-game, finished)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core import GameConfig, GameDefinition, decode_event, replay
from domain.custody import CUSTODY_EVENTS, EventsQuarantined, SeatTokenRotated
from domain.registry import GAMES
from tests.third_game.game import GAME as THIRD_GAME

DEFINITIONS = [*sorted(GAMES.values(), key=lambda g: g.type_id), THIRD_GAME]


@pytest.mark.parametrize("game", DEFINITIONS, ids=lambda g: g.type_id)
def test_every_game_records_the_custody_events_and_its_state_passes_through_them(
    game: GameDefinition[Any],
) -> None:
    for cls in CUSTODY_EVENTS:
        assert game.event_types[cls.TYPE] is cls
    players = tuple(f"p{i}" for i in range(game.min_players))
    state = replay(game, game.setup(GameConfig(players, "custody")))
    for event in (SeatTokenRotated(0), EventsQuarantined(from_seq=3, to_seq=4, count=2, hashes=("a" * 64, "b" * 64))):
        assert game.evolve(state, event) is state
        assert decode_event(game, event.TYPE, event.to_payload()) == event
        # nothing of them is secret: every caller sees the whole payload
        assert game.redact(state, event, None) == event.to_payload()


def test_the_evolve_wrapper_is_applied_once_and_keeps_the_games_own_evolve() -> None:
    game = GAMES["cable-car"]
    again = GameDefinition(**{f: getattr(game, f) for f in game.__dataclass_fields__})
    assert again.evolve is game.evolve
    assert again.events == game.events  # listed once, not twice
    assert game.evolve.__wrapped__.__name__ == "evolve"  # type: ignore[attr-defined]
