"""Setting a game up: cards, start tiles, the seeded pile, configuration errors."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.cablecar import GAME
from domain.cablecar.components import COMPONENTS
from domain.cablecar.events import GameSetUp
from domain.core import GameConfig
from domain.errors import InvalidConfig
from tests.unit.cablecar.helpers import NAMES, config, new_game
from tests.unit.cablecar.invariants import tile_supply

START = ("straight", "straight", "straight", "curve", "curve")


def setup_event(players: int, seed: str = "s", start_seat: int = 0) -> GameSetUp:
    event = GAME.setup(config(players, seed, start_seat))[0]
    assert isinstance(event, GameSetUp)
    return event


@pytest.mark.parametrize("players", range(2, 7))
def test_every_tile_is_dealt_or_in_the_pile(players: int) -> None:
    event = setup_event(players)
    assert event.pile is not None
    dealt = Counter(event.pile) + Counter(t for hand in event.hands for t in hand)
    assert dealt == tile_supply()
    assert event.pile_count == len(event.pile) == 126 - 5 * players


@pytest.mark.parametrize("players", range(2, 7))
def test_secret_cards_fit_the_player_count(players: int) -> None:
    event = setup_event(players)
    assert len(set(event.lines)) == players
    assert len(set(event.route_cards)) == players
    deck = {c.id: c for c in COMPONENTS.route_cards_for(players)}
    prefix = "B" if players <= 3 else "R"
    for line, card, route in zip(event.lines, event.route_cards, event.routes, strict=True):
        assert card is not None and card.startswith(prefix)
        assert line is not None and route == deck[card].stops[line]
        assert route is not None and len(route) == (3 if players <= 3 else 2)


def test_five_players_take_the_25_start_tiles() -> None:
    event = setup_event(5)
    assert all(hand == START for hand in event.hands)
    assert event.pile is not None
    assert Counter(event.pile)["straight"] == 21 and Counter(event.pile)["curve"] == 20


def test_fewer_players_leave_start_tiles_to_the_pile() -> None:
    event = setup_event(2)
    assert event.pile is not None
    assert Counter(event.pile)["straight"] == 21 + 15 - 6


def test_ruling_the_sixth_player_searches_its_start_tiles_out_of_the_pile() -> None:
    event = setup_event(6, start_seat=2)
    # turn order 2, 3, 4, 5, 0, 1: the sixth player is seat 1
    assert [hand == START for hand in event.hands] == [True, True, True, True, True, True]
    assert event.pile is not None and len(event.pile) == 101 - 5
    assert Counter(event.pile)["straight"] == 21 - 3 and Counter(event.pile)["curve"] == 20 - 2


def test_the_start_seat_plays_first() -> None:
    _, state = new_game(3, start_seat=2)
    assert state.turn == 2 and GAME.active_seats(state) == (2,)
    assert GAME.status(state) == "playing" and GAME.result(state) is None


@pytest.mark.parametrize(
    ("players", "start_seat", "code"),
    [(1, 0, "player_count"), (7, 0, "player_count"), (2, 2, "start_seat"), (2, -1, "start_seat")],
)
def test_bad_configurations_are_refused(players: int, start_seat: int, code: str) -> None:
    names = (NAMES * 2)[:players]
    with pytest.raises(InvalidConfig) as info:
        GAME.setup(GameConfig(players=names, seed="s", start_seat=start_seat))
    assert info.value.code == code
