"""The rulebook's ride and draw rules (Swedish rules, ``shared/seeds/002``), and ``cable-car/4``.

Rules the code followed before without a test of their own (trams share and
pass squares; no ride in the turn that completed the network), then the two
rules of ``cable-car/4`` (a complete network must ride; riders' hands are
drawn from only once the pile is empty), each beside the older rule that
games created under ``/3`` keep.  Each test quotes its rulebook sentence.
"""

from __future__ import annotations

import dataclasses

import pytest

from domain.cablecar import GAME
from domain.cablecar.actions import DrawTile, Roll, StartRide
from domain.cablecar.events import DieRolled, RideStarted, TileDrawn, TilesDrawn, TilesLaid
from domain.cablecar.state import CableCarState, Ride
from domain.errors import IllegalAction, NotYourTurn
from domain.forfeits import Resign, SeatResigned
from tests.unit.cablecar.helpers import (
    act,
    board_of,
    lay,
    place,
    presidio_route_board,
    state_of,
    types,
    with_next_face,
)

STOPS = {"H": (4, 10), "M": (3, 6), "I": (6, 10)}
ROUTE = ("H", "M")
HAND = ("straight", "straight", "straight", "curve", "curve")
#: the one tile missing from seat 0's network (line 3, Presidio to Mission Bay, route H M)
MISSING = place("straight", 3, 5, 1)
#: a tile laid out of everybody's way
ASIDE = place("straight", 8, 8, 0)


def almost(pile: tuple[str, ...] = ("curve",) * 20, rules: int = 4) -> CableCarState:
    """Seat 0 (line 3, route H M) lacks one straight on (3, 5) for a complete network; seat 1 has line 1."""
    tiles = presidio_route_board()
    del tiles[(3, 5)]
    state = state_of(
        board_of(tiles, STOPS), hands=(HAND, HAND), lines=("3", "1"), routes=(ROUTE, ("A", "C")), pile=pile
    )
    return dataclasses.replace(state, rules=rules)


def complete(rules: int = 4) -> CableCarState:
    """Seat 0's network is complete and it is seat 0's turn."""
    state = almost(rules=rules)
    return dataclasses.replace(state, board=board_of(presidio_route_board(), STOPS))


def with_rider(state: CableCarState, seat: int) -> CableCarState:
    """``state`` with ``seat`` riding (a short ride of its own)."""
    ride = Ride("Presidio", "Mission Bay", ("Presidio", 24, "Mission Bay"))
    return state.with_player(seat, dataclasses.replace(state.players[seat], ride=ride))


def refusal(state: CableCarState, seat: int, action: object) -> str:
    with pytest.raises(IllegalAction) as info:
        act(state, seat, action)  # type: ignore[arg-type]
    return info.value.code


# --- rules without a test until now -------------------------------------------------------


def test_trams_may_share_and_pass_squares() -> None:
    """"Spårvagnarna får stanna på ett fält som redan är upptaget av en annan spelares spårvagn
    eller passera förbi ett upptaget fält." (Trams may stop on a space another player's tram
    already occupies, or pass an occupied space.)"""
    _, state = act(complete(), 0, StartRide())
    ride = state.players[0].ride
    assert ride is not None
    # seat 1's tram stands on the fourth space of the same track
    state = state.with_player(1, dataclasses.replace(state.players[1], ride=dataclasses.replace(ride, position=3)))
    events, after = act(with_next_face(state, "3"), 0, Roll())
    assert events[0] == DieRolled(0, "3", events[0].rng_counter, 0, 3, ends_turn=True)  # type: ignore[attr-defined]
    assert after.players[0].ride.current == after.players[1].ride.current  # type: ignore[union-attr]
    # from just behind it, a 4 drives past it
    behind = state.with_player(0, dataclasses.replace(state.players[0], ride=dataclasses.replace(ride, position=2)))
    events, after = act(with_next_face(behind, "4"), 0, Roll())
    assert events[0].end == 6 and after.players[1].ride.position == 3  # type: ignore[attr-defined,union-attr]


@pytest.mark.parametrize("rules", [3, 4])
def test_the_ride_cannot_start_in_the_turn_the_network_was_completed(rules: int) -> None:
    """"Nu har du färdigställt ditt spårvagnsnät. Vänta tills det är din tur igen och börja med
    invigningsfärden." (Now you have completed your network. Wait until it is your turn again
    and begin the inaugural ride.)"""
    events, after = act(almost(rules=rules), 0, lay(MISSING, ASIDE))
    assert types(events) == ["tiles_laid", "tiles_drawn+turn_ended"] and after.turn == 1
    with pytest.raises(NotYourTurn):
        act(after, 0, StartRide())
    # nor while it chooses its draw in that turn (the pile empty, a rider's hand to choose from)
    choosing = with_rider(almost(pile=(), rules=rules), 1)
    choosing = choosing.with_player(1, dataclasses.replace(choosing.players[1], hand=("curve", "tree_wye", "curve")))
    _, after = act(choosing, 0, lay(MISSING, ASIDE))
    assert after.drawing and after.turn == 0
    assert StartRide("Presidio") not in GAME.legal_actions(after, 0)
    assert refusal(after, 0, StartRide()) == "draw_in_progress"
    # at its next turn it may
    _, after = act(after, 0, DrawTile("rider", 1, "curve"))
    _, after = act(after, 0, DrawTile("rider", 1, "tree_wye"))
    after = dataclasses.replace(after, turn=0)  # seat 1 rides; back to seat 0
    events, _ = act(after, 0, StartRide())
    assert isinstance(events[0], RideStarted)


# --- cable-car/4: a complete network must ride ---------------------------------------------


def test_a_complete_network_must_start_its_ride() -> None:
    """"När en spelare har färdigställt sin sträcka mellan två ändhållplatser, måste han/hon
    avslöja sin hemliga färdväg" (When a player has completed its track between two terminals,
    it must reveal its secret route) and "Vänta tills det är din tur igen och börja med
    invigningsfärden" (wait until it is your turn again and begin the inaugural ride)."""
    state = complete()
    assert GAME.legal_actions(state, 0) == [StartRide("Presidio"), StartRide("Mission Bay")]
    assert refusal(state, 0, lay(ASIDE, place("straight", 10, 5))) == "ride_due"
    assert refusal(state, 0, lay(ASIDE)) == "ride_due"
    assert refusal(state, 0, Roll()) == "ride_due"
    assert refusal(state, 0, DrawTile("pile")) == "ride_due"
    events, after = act(state, 0, StartRide("Mission Bay"))
    assert isinstance(events[0], RideStarted) and after.players[0].riding
    # or it resigns
    events, after = act(state, 0, Resign())
    assert events[0] == SeatResigned(0) and after.winners == (1,)  # the last seat in wins


def test_a_network_completed_by_another_player_is_due_at_its_owners_next_turn() -> None:
    """"måste han/hon avslöja sin hemliga färdväg" (it must reveal its secret route): whoever laid
    the last tile; the server judges completeness at the start of the seat's turn."""
    state = dataclasses.replace(almost(), turn=1)
    _, after = act(state, 1, lay(MISSING, ASIDE))
    assert after.turn == 0
    assert GAME.legal_actions(after, 0) == [StartRide("Presidio"), StartRide("Mission Bay")]
    assert refusal(after, 0, lay(place("straight", 10, 5), place("straight", 6, 6))) == "ride_due"


def test_under_cable_car_3_a_complete_network_may_keep_laying() -> None:
    state = complete(rules=3)
    listed = GAME.legal_actions(state, 0)
    assert list(listed[:2]) == [StartRide("Presidio"), StartRide("Mission Bay")] and len(listed) > 2
    events, after = act(state, 0, lay(ASIDE, place("straight", 10, 5)))
    assert isinstance(events[0], TilesLaid) and after.turn == 1 and not after.players[0].riding


# --- cable-car/4: riders' hands only once the pile is empty ----------------------------------

RIDER_HAND = ("curve", "switch_left", "tree_wye")


def drawing_state(pile: tuple[str, ...], rules: int = 4) -> CableCarState:
    """Seat 0 about to lay two straights (it then needs two tiles); seat 1 rides holding ``RIDER_HAND``."""
    state = state_of(hands=(("straight",) * 5, RIDER_HAND), pile=pile)
    return dataclasses.replace(with_rider(state, 1), rules=rules)


PAIR = lay(place("straight", 6, 6, 0), ASIDE)


def test_riders_hands_are_drawn_from_only_once_the_pile_is_empty() -> None:
    """"Om det inte finns några rälskort kvar i förrådet för övriga spelare får de plocka av dessa
    kort." (If no track tiles are left in the supply for the other players, they may take from
    these tiles.)"""
    events, after = act(drawing_state(("double_curve", "straight", "curve")), 0, PAIR)
    assert events[1:] == [TilesDrawn(0, ("double_curve", "straight"), (), ends_turn=True)]
    assert after.players[1].hand == RIDER_HAND and after.turn == 1
    # the pile empty: the choice of a rider's tile
    _, after = act(drawing_state(()), 0, PAIR)
    assert after.drawing
    assert GAME.legal_actions(after, 0) == [DrawTile("rider", 1, t) for t in RIDER_HAND]
    assert refusal(after, 0, DrawTile("pile")) == "pile_empty"


def test_a_draw_longer_than_the_pile_takes_the_pile_first_then_chooses() -> None:
    """"Om det inte finns några rälskort kvar i förrådet för övriga spelare får de plocka av dessa
    kort." **Ruling:** the rest of the pile first, then a rider's tile for the remainder."""
    events, after = act(drawing_state(("double_curve",)), 0, PAIR)
    assert events[1:] == [TilesDrawn(0, ("double_curve",), ())]
    assert after.drawing and after.pile == () and after.turn == 0
    assert GAME.legal_actions(after, 0) == [DrawTile("rider", 1, t) for t in RIDER_HAND]
    events, after = act(after, 0, DrawTile("rider", 1, "tree_wye"))
    assert events == [TileDrawn(0, "rider", 1, "tree_wye", ends_turn=True)]
    assert after.players[0].hand == ("straight",) * 3 + ("double_curve", "tree_wye") and after.turn == 1
    # nothing to choose after the pile (one kind of tile left): one automatic draw
    state = drawing_state(("double_curve",))
    state = state.with_player(1, dataclasses.replace(state.players[1], hand=("curve", "curve")))
    events, after = act(state, 0, PAIR)
    assert events[1:] == [TilesDrawn(0, ("double_curve",), ((1, "curve"),), ends_turn=True)]


def test_under_cable_car_3_a_riders_hand_is_a_choice_while_the_pile_holds_tiles() -> None:
    _, after = act(drawing_state(("double_curve", "straight", "curve"), rules=3), 0, PAIR)
    assert after.drawing
    assert GAME.legal_actions(after, 0) == [DrawTile("pile")] + [DrawTile("rider", 1, t) for t in RIDER_HAND]
    events, after = act(after, 0, DrawTile("rider", 1, "switch_left"))
    assert events == [TileDrawn(0, "rider", 1, "switch_left")] and after.pile == ("double_curve", "straight", "curve")
