"""Exchanges: superset rule, trees, stops and trams staying, adjacent double
exchanges, relaying the removed tile, drawing one less."""

from __future__ import annotations

import dataclasses

import pytest

from domain.cablecar.candidates import legal_placements
from domain.cablecar.events import TilesDrawn, TilesLaid
from domain.cablecar.geometry import square_index
from domain.cablecar.network import best_path
from domain.cablecar.pairs import legal_pairs
from domain.cablecar.state import Ride
from domain.errors import IllegalAction
from tests.unit.cablecar.helpers import act, board_of, lay, place, presidio_route_board, state_of, types

HAND = ("switch_left", "switch_right", "curve", "curve", "straight")
FILLER = place("curve", 10, 5, 0)


def refused(
    tiles: dict[tuple[int, int], tuple[str, int]], *placements: object, hand: tuple[str, ...] = HAND
) -> str:
    state = state_of(board_of(tiles), hands=(hand, hand))
    with pytest.raises(IllegalAction) as info:
        act(state, 0, lay(*placements))  # type: ignore[arg-type]
    return info.value.code


def test_an_exchange_keeps_the_old_track_and_returns_the_tile_to_the_hand() -> None:
    state = state_of(board_of({(6, 6): ("straight", 0)}), hands=(HAND, HAND), pile=("tree_wye",) * 3)
    events, after = act(state, 0, lay(place("switch_left", 6, 6, 0), FILLER))
    laid = events[0]
    assert isinstance(laid, TilesLaid)
    assert laid.placements[0]["replaced"] == {"tile": "straight", "rotation": 0}
    assert after.board.cells[square_index(6, 6)].tile == "switch_left"  # type: ignore[union-attr]
    assert after.players[0].hand.count("straight") == 2


def test_the_new_tile_must_contain_every_old_segment() -> None:
    assert refused({(6, 6): ("straight", 0)}, place("curve", 6, 6, 0), FILLER) == "exchange_not_superset"
    # the switch turned so that its straight runs E-W no longer holds the N-S straight
    assert (
        refused({(6, 6): ("straight", 0)}, place("switch_left", 6, 6, 1), FILLER) == "exchange_not_superset"
    )


def test_an_exchange_must_add_track() -> None:
    assert refused({(6, 6): ("straight", 0)}, place("straight", 6, 6, 2), FILLER) == "exchange_adds_no_track"


def test_tree_tiles_are_never_exchanged() -> None:
    hand = ("tree_roundabout", "curve", "curve", "curve", "curve")
    code = refused({(6, 6): ("tree_crossing", 0)}, place("tree_roundabout", 6, 6, 0), FILLER, hand=hand)
    assert code == "tree_not_exchangeable"


def test_the_result_of_an_exchange_obeys_the_placement_rules() -> None:
    # switch_right adds an E track that dead-ends on the bare W edge of (6, 7)
    tiles = {(6, 6): ("straight", 0), (6, 7): ("straight", 0)}
    assert refused(tiles, place("switch_right", 6, 6, 0), FILLER) == "dead_end"


def test_the_stop_stays_on_an_exchanged_stop_tile() -> None:
    board = board_of({(5, 6): ("straight", 1)}, stops={"M": (5, 6)})
    state = state_of(board, hands=(HAND, HAND))
    _, after = act(state, 0, lay(place("switch_left", 5, 6, 3), FILLER))
    assert after.board.cells[square_index(5, 6)].tile == "switch_left"  # type: ignore[union-attr]
    assert after.board.stop_tile("M") == square_index(5, 6)


def test_the_tram_stays_on_an_exchanged_tile_and_its_path_stays_drivable() -> None:
    board = board_of(presidio_route_board(), stops={"H": (4, 10), "M": (3, 6)})
    path = best_path(board, "3", ("H", "M"))
    assert path is not None
    ride = Ride(path.origin, path.destination, path.spaces, position=5)
    state = state_of(board, hands=(HAND, HAND), lines=("1", "3"), routes=((), ("H", "M")))
    state = state.with_player(1, dataclasses.replace(state.players[1], ride=ride))
    tram_square = path.spaces[5]
    assert tram_square == square_index(3, 5)
    _, after = act(state, 0, lay(place("switch_right", 3, 5, 1), FILLER))
    assert after.board.cells[square_index(3, 5)].tile == "switch_right"  # type: ignore[union-attr]
    assert after.players[1].ride == ride
    again = best_path(after.board, "3", ("H", "M"), "Presidio")
    assert again is not None and again.length == path.length


ADJACENT = {(6, 6): ("straight", 0), (6, 7): ("straight", 0)}
JOINT_X = place("switch_right", 6, 6, 0)  # adds E track towards (6, 7)
JOINT_Y = place("switch_left", 6, 7, 0)  # adds W track towards (6, 6)


def test_adjacent_exchanges_are_each_refused_alone() -> None:
    assert refused(ADJACENT, JOINT_X, FILLER) == "dead_end"
    assert refused(ADJACENT, JOINT_Y, FILLER) == "dead_end"


@pytest.mark.parametrize("order", [(JOINT_X, JOINT_Y), (JOINT_Y, JOINT_X)])
def test_adjacent_exchanges_are_legal_together_in_either_order(order: tuple[object, object]) -> None:
    state = state_of(board_of(ADJACENT), hands=(HAND, HAND))
    events, after = act(state, 0, lay(*order))  # type: ignore[arg-type]
    assert after.board.cells[square_index(6, 6)].tile == "switch_right"  # type: ignore[union-attr]
    assert after.board.cells[square_index(6, 7)].tile == "switch_left"  # type: ignore[union-attr]
    # two exchanges: both removed straights are in the hand, nothing is drawn
    assert types(events) == ["tiles_laid+turn_ended"]
    assert sorted(after.players[0].hand) == ["curve", "curve", "straight", "straight", "straight"]


def test_a_double_exchange_whose_result_is_illegal_is_refused() -> None:
    # the second exchange does not answer the first one's new track
    hand = ("switch_right", "switch_right", "curve", "curve", "straight")
    state = state_of(board_of(ADJACENT), hands=(hand, hand))
    with pytest.raises(IllegalAction) as info:
        act(state, 0, lay(JOINT_X, place("switch_right", 6, 7, 0)))
    assert info.value.code == "blocks_neighbour"


def test_the_move_generator_offers_adjacent_double_exchanges() -> None:
    state = state_of(board_of(ADJACENT), hands=(HAND, HAND))
    firsts = legal_placements(state, 0)
    assert JOINT_X not in firsts and JOINT_Y not in firsts
    assert legal_placements(state, 0, JOINT_X) == [JOINT_Y]
    assert legal_placements(state, 0, JOINT_Y) == [JOINT_X]
    pairs = legal_pairs(state.board, state.players[0].hand)
    assert (JOINT_X, JOINT_Y) in pairs and (JOINT_Y, JOINT_X) in pairs


def test_the_removed_tile_may_be_laid_second_in_the_same_turn() -> None:
    hand = ("switch_left", "curve", "curve", "curve", "curve")
    state = state_of(board_of({(6, 6): ("straight", 0)}), hands=(hand, hand), pile=("tree_wye", "tree_wye"))
    relay = place("straight", 8, 8, 0)
    with pytest.raises(IllegalAction) as info:
        act(state, 0, lay(relay, place("switch_left", 6, 6, 0)))
    assert info.value.code == "tile_not_in_hand"
    assert relay in legal_placements(state, 0, place("switch_left", 6, 6, 0))
    events, after = act(state, 0, lay(place("switch_left", 6, 6, 0), relay))
    assert after.board.cells[square_index(8, 8)].tile == "straight"  # type: ignore[union-attr]
    # one exchange: one tile less to draw
    assert events[1:] == [TilesDrawn(0, ("tree_wye",), (), ends_turn=True)]
    assert len(after.players[0].hand) == 5
