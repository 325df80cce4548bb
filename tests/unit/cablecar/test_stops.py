"""Stop tiles: the first tile laid next to a stop becomes its tile."""

from __future__ import annotations

from domain.cablecar import GAME
from domain.cablecar.events import TilesLaid
from domain.cablecar.geometry import square_index
from tests.unit.cablecar.helpers import act, board_of, lay, place, state_of

HAND = ("straight", "straight", "straight", "curve", "curve")
BELOW_M = place("straight", 5, 6, 1)  # (5, 6), E-W under stop M (4, 6)
RIGHT_OF_M = place("straight", 4, 7, 0)  # (4, 7), N-S east of stop M
FAR = place("straight", 10, 5, 0)


def test_the_first_tile_next_to_a_stop_becomes_its_tile() -> None:
    state = state_of(hands=(HAND, HAND))
    assert state.board.stop_tile("M") is None
    events, after = act(state, 0, lay(BELOW_M, FAR))
    laid = events[0]
    assert isinstance(laid, TilesLaid)
    assert laid.placements[0]["stops"] == ("M",) and laid.placements[1]["stops"] == ()
    assert after.board.stop_tile("M") == square_index(5, 6)


def test_a_later_tile_next_to_the_stop_does_not_take_it_over() -> None:
    state = state_of(board_of({(5, 6): ("straight", 1)}, stops={"M": (5, 6)}), hands=(HAND, HAND))
    events, after = act(state, 0, lay(RIGHT_OF_M, FAR))
    assert isinstance(events[0], TilesLaid) and events[0].placements[0]["stops"] == ()
    assert after.board.stop_tile("M") == square_index(5, 6)


def test_ruling_both_tiles_of_a_turn_next_to_a_stop_the_first_wins() -> None:
    state = state_of(hands=(HAND, HAND))
    _, after = act(state, 0, lay(BELOW_M, RIGHT_OF_M))
    assert after.board.stop_tile("M") == square_index(5, 6)
    _, after = act(state, 0, lay(RIGHT_OF_M, BELOW_M))
    assert after.board.stop_tile("M") == square_index(4, 7)


def test_an_exchange_never_assigns_a_stop() -> None:
    # a crafted board where a tile lies next to stop M without being its tile
    board = board_of({(5, 6): ("straight", 1)})
    hand = ("switch_left", "curve", "curve", "curve", "curve")
    state = state_of(board, hands=(hand, hand))
    _, after = act(state, 0, lay(place("switch_left", 5, 6, 3), FAR))
    assert after.board.stop_tile("M") is None


def test_stops_in_the_view_are_their_tile_squares() -> None:
    state = state_of(hands=(HAND, HAND))
    _, after = act(state, 0, lay(BELOW_M, FAR))
    stops = GAME.view(after, None)["stops"]
    assert stops["M"] == [5, 6]
    assert stops["A"] is None and len(stops) == 12
