"""The inaugural ride: starting it, rolling, H, terminal loops, winning."""

from __future__ import annotations

import dataclasses

import pytest

from domain.cablecar import GAME
from domain.cablecar.actions import DrawTile, Roll, StartRide
from domain.cablecar.events import DieRolled, GameEnded, RideStarted, TilesDrawn
from domain.cablecar.geometry import square_index
from domain.cablecar.network import best_path
from domain.cablecar.state import CableCarState, Ride
from domain.errors import GameFinished, IllegalAction
from tests.unit.cablecar.helpers import (
    act,
    board_of,
    lay,
    place,
    presidio_route_board,
    state_of,
    with_next_face,
)

STOPS = {"H": (4, 10), "M": (3, 6), "I": (6, 10)}
ROUTE = ("H", "M")
HAND = ("straight", "straight", "straight", "curve", "curve")


BOTH_IN = [{"seat": 0, "standing": "in"}, {"seat": 1, "standing": "in"}]


def ready() -> CableCarState:
    """Seat 0 (line 3, route H M) has a complete network; seat 1 has line 1."""
    board = board_of(presidio_route_board(), STOPS)
    return state_of(board, hands=(HAND, HAND), lines=("3", "1"), routes=(ROUTE, ("A", "C")))


def riding(position: int, face: str) -> CableCarState:
    """Seat 0 riding the shortest path from Presidio, at ``position``, next roll ``face``."""
    _, state = act(ready(), 0, StartRide())
    ride = state.players[0].ride
    assert ride is not None
    state = state.with_player(
        0, dataclasses.replace(state.players[0], ride=dataclasses.replace(ride, position=position))
    )
    return with_next_face(state, face)


def refusal(state: CableCarState, seat: int, action: object) -> str:
    with pytest.raises(IllegalAction) as info:
        act(state, seat, action)  # type: ignore[arg-type]
    return info.value.code


def test_an_incomplete_network_cannot_start_and_nothing_is_revealed() -> None:
    state = state_of(
        board_of(presidio_route_board(), {"H": (4, 10)}),
        hands=(HAND, HAND),
        lines=("3", "1"),
        routes=(ROUTE, ()),
    )
    assert refusal(state, 0, StartRide()) == "network_incomplete"
    assert GAME.view(state, 1)["players"][0]["line"] is None


def test_starting_the_ride_reveals_the_cards_and_the_same_seat_rolls() -> None:
    state = ready()
    assert GAME.view(state, 1)["players"][0]["line"] is None
    events, after = act(state, 0, StartRide())
    assert len(events) == 1 and isinstance(events[0], RideStarted)
    started = events[0]
    assert (started.line, started.route, started.origin, started.destination) == (
        "3",
        ROUTE,
        "Presidio",
        "Mission Bay",
    )
    assert started.spaces[0] == "Presidio" and started.spaces[1] == (3, 1)
    view = GAME.view(after, 1)["players"][0]
    assert view["line"] == "3" and view["route"] == ["H", "M"] and view["riding"] is True
    assert view["tram"] == {"row": 3, "col": 1, "space": 0, "terminal": "Presidio"}
    assert GAME.active_seats(after) == (0,)
    assert GAME.legal_actions(after, 0) == [Roll()]
    assert refusal(after, 0, lay(place("straight", 8, 8), place("straight", 10, 5))) == "already_riding"
    assert refusal(after, 0, StartRide()) == "already_riding"


def test_rolling_needs_a_ride() -> None:
    assert refusal(state_of(hands=(HAND, HAND)), 0, Roll()) == "not_riding"
    # under cable-car/3 a complete network did not have to ride (since /4 its ride is due)
    assert refusal(dataclasses.replace(ready(), rules=3), 0, Roll()) == "not_riding"


def test_start_from_the_other_terminal_or_along_a_requested_path() -> None:
    _, after = act(ready(), 0, StartRide("Mission Bay"))
    ride = after.players[0].ride
    assert ride is not None and ride.origin == "Mission Bay" and ride.spaces[1] == square_index(10, 12)
    assert refusal(ready(), 0, StartRide("Ocean Beach")) == "not_your_terminal"
    path = best_path(ready().board, "3", ROUTE)
    assert path is not None
    steps = tuple((s // 12 + 1, s % 12 + 1) if isinstance(s, int) else s for s in path.spaces[1:-1])
    _, after = act(ready(), 0, StartRide(None, steps))
    assert after.players[0].ride == Ride("Presidio", "Mission Bay", path.spaces)
    assert refusal(ready(), 0, StartRide(None, steps[1:])) == "bad_path"


def test_legal_actions_offer_the_ride_from_either_terminal() -> None:
    actions = GAME.legal_actions(ready(), 0)
    assert actions[:2] == [StartRide("Presidio"), StartRide("Mission Bay")]
    assert StartRide("Presidio") not in GAME.legal_actions(dataclasses.replace(ready(), turn=1), 1)


@pytest.mark.parametrize(
    ("start", "face", "end"),
    [
        (0, "1", 1),
        (0, "4", 4),
        (10, "3", 13),  # lands on the Ferry Building loop: one space
        (12, "2", 14),  # drives over the loop: (3, 12) -> loop -> (2, 12)
        (0, "H", 6),  # next stop tile: M on (3, 6)
        (6, "H", 13),  # next terminal: the Ferry Building loop
        (13, "H", 18),  # next stop tile: H on (4, 10)
        (18, "H", 20),  # stop I's tile (6, 10) counts though I is not on the card
    ],
)
def test_the_tram_moves_along_its_path(start: int, face: str, end: int) -> None:
    state = riding(start, face)
    events, after = act(state, 0, Roll())
    rolled = events[0]
    assert isinstance(rolled, DieRolled)
    assert (rolled.face, rolled.start, rolled.end) == (face, start, end)
    assert rolled.ends_turn and len(events) == 1 and after.turn == 1
    assert after.players[0].ride is not None and after.players[0].ride.position == end
    assert after.players[0].last_roll == face
    assert after.rng.counter == rolled.rng_counter > state.rng.counter


def test_the_tram_on_a_loop_is_shown_next_to_it() -> None:
    _, after = act(riding(10, "3"), 0, Roll())
    tram = GAME.view(after, None)["players"][0]["tram"]
    assert tram == {"row": 3, "col": 12, "space": 13, "terminal": "Ferry Building"}


@pytest.mark.parametrize(("start", "face"), [(25, "4"), (24, "3"), (23, "H"), (26, "1")])
def test_reaching_the_destination_wins_at_once_and_surplus_pips_are_lost(start: int, face: str) -> None:
    events, after = act(riding(start, face), 0, Roll())
    assert isinstance(events[0], DieRolled) and events[0].end == 27
    assert events[1:] == [GameEnded((0,), "destination_reached")]
    assert GAME.status(after) == "finished" and GAME.active_seats(after) == ()
    assert GAME.result(after) == {"winners": [0], "reason": "destination_reached", "players": BOTH_IN}
    view = GAME.view(after, 1)
    assert view["result"] == {"winners": [0], "reason": "destination_reached", "players": BOTH_IN}
    assert view["players"][1]["line"] == "1"  # everything is revealed at the end
    with pytest.raises(GameFinished):
        act(after, 1, lay(place("straight", 8, 8), place("straight", 10, 5)))


def test_other_players_keep_laying_while_one_rides() -> None:
    events, after = act(riding(3, "1"), 0, Roll())
    assert after.turn == 1
    pile = after.pile
    events, after = act(after, 1, lay(place("straight", 8, 8), place("straight", 10, 5)))
    # the pile still holds tiles: seat 1 draws from it, not from the rider's open hand
    assert events[1] == TilesDrawn(1, pile[:2], (), ends_turn=True)
    assert after.players[0].hand == HAND
    assert after.turn == 0 and GAME.legal_actions(after, 0) == [Roll()]


def test_under_cable_car_3_other_players_chose_between_the_pile_and_a_riders_hand() -> None:
    events, after = act(dataclasses.replace(riding(3, "1"), rules=3), 0, Roll())
    _, after = act(after, 1, lay(place("straight", 8, 8), place("straight", 10, 5)))
    # the rider's open hand offered a choice while the pile held tiles: seat 1 drew tile by tile
    assert after.drawing and DrawTile("pile") in GAME.legal_actions(after, 1)
    while after.turn == 1:
        _, after = act(after, 1, DrawTile("pile"))
    assert after.turn == 0 and GAME.legal_actions(after, 0) == [Roll()]
