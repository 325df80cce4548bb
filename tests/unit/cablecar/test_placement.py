"""The placement rules: each refusal with its code, and the accepted cases."""

from __future__ import annotations

import dataclasses

import pytest

from domain.cablecar.events import TilesDrawn, TilesLaid
from domain.cablecar.geometry import square_index
from domain.cablecar.placement import check_placement
from domain.errors import GameFinished, IllegalAction, NotYourTurn
from tests.unit.cablecar.helpers import act, board_of, lay, place, state_of

HAND = ("straight", "straight", "curve", "curve", "switch_left")
#: a placement legal on the boards below, used as the other tile of a turn
FILLER = place("straight", 10, 5, 0)


def refusal(tiles: dict[tuple[int, int], tuple[str, int]], *placements: object) -> IllegalAction:
    state = state_of(board_of(tiles), hands=(HAND, HAND))
    with pytest.raises(IllegalAction) as info:
        act(state, 0, lay(*placements))  # type: ignore[arg-type]
    return info.value


def test_two_legal_tiles_are_laid_and_the_hand_is_refilled() -> None:
    state = state_of(hands=(HAND, HAND), pile=("tree_wye", "double_curve", "curve"))
    events, after = act(state, 0, lay(place("straight", 6, 6, 1), place("curve", 6, 7, 2)))
    assert isinstance(events[0], TilesLaid)
    assert events[1:] == [TilesDrawn(0, ("tree_wye", "double_curve"), (), ends_turn=True)]
    assert after.board.cells[square_index(6, 7)].tile == "curve"  # type: ignore[union-attr]
    assert after.players[0].hand == ("straight", "curve", "switch_left", "tree_wye", "double_curve")
    assert after.pile == ("curve",)
    assert after.turn == 1


@pytest.mark.parametrize(
    ("placement", "code"),
    [
        (place("straight", 0, 5), "off_board"),
        (place("straight", 5, 13), "off_board"),
        (place("straight", 4, 6), "covers_stop"),
        (place("tree_wye", 6, 6), "tile_not_in_hand"),
        (place("monorail", 6, 6), "unknown_tile"),
        (place("straight", 6, 6, 4), "bad_rotation"),
        (place("straight", 6, 6, -1), "bad_rotation"),
    ],
)
def test_square_and_tile_refusals(placement: object, code: str) -> None:
    assert refusal({}, placement, FILLER).code == code


def test_rule_1_no_track_off_the_board() -> None:
    error = refusal({}, place("straight", 1, 5, 0), FILLER)
    assert error.code == "leads_off_board"
    assert "north edge of (1, 5)" in error.detail
    # a curve that stays on the board is fine on the same square
    _, after = act(state_of(hands=(HAND, HAND)), 0, lay(place("curve", 1, 5, 1), FILLER))
    assert after.board.cells[square_index(1, 5)] is not None


def test_rule_2_no_track_into_a_stop() -> None:
    assert refusal({}, place("straight", 5, 6, 0), FILLER).code == "leads_into_stop"
    assert refusal({}, place("straight", 3, 6, 0), FILLER).code == "leads_into_stop"
    assert "stop M" in refusal({}, place("curve", 4, 7, 3), FILLER).detail


def test_rule_4_a_neighbours_track_must_be_met() -> None:
    error = refusal({(6, 6): ("straight", 1)}, place("straight", 6, 7, 0), FILLER)
    assert error.code == "blocks_neighbour"


def test_rule_5_no_track_into_a_bare_neighbour_edge() -> None:
    error = refusal({(6, 6): ("straight", 0)}, place("straight", 6, 7, 1), FILLER)
    assert error.code == "dead_end"


def test_ruling_a_terminal_end_counts_as_a_neighbour_with_track() -> None:
    # (1, 6) faces the end of the Fisherman's Wharf loop on its north edge
    assert refusal({}, place("straight", 1, 6, 1), FILLER).code == "blocks_terminal"
    state = state_of(hands=(HAND, HAND))
    _, after = act(state, 0, lay(place("straight", 1, 6, 0), FILLER))
    assert after.board.cells[square_index(1, 6)] is not None


def test_track_may_face_an_empty_square() -> None:
    board = board_of({})
    laid = check_placement(board, HAND, place("switch_left", 6, 6, 0))
    assert laid.square == square_index(6, 6) and laid.replaced is None


def test_rules_are_reported_in_rule_order() -> None:
    # switch_left on (5, 6): N into stop M (rule 2) and W into the bare side of (5, 5) (rule 5)
    assert refusal({(5, 5): ("straight", 0)}, place("switch_left", 5, 6, 0), FILLER).code == "leads_into_stop"
    # straight N-S on (1, 5) next to a bare neighbour: off the board (rule 1) before anything else
    assert refusal({(2, 5): ("straight", 1)}, place("straight", 1, 5, 0), FILLER).code == "leads_off_board"
    # (1, 6) straight E-W: blocks the terminal (rule 4) before its dead end on (1, 7) (rule 5)
    assert refusal({(1, 7): ("straight", 0)}, place("straight", 1, 6, 1), FILLER).code == "blocks_terminal"


def test_the_second_placement_is_judged_after_the_first() -> None:
    state = state_of(hands=(HAND, HAND))
    # alone, the curve on (6, 7) is fine; after a N-S straight on (6, 6) its W track dead-ends
    with pytest.raises(IllegalAction) as info:
        act(state, 0, lay(place("straight", 6, 6, 0), place("curve", 6, 7, 2)))
    assert info.value.code == "dead_end"
    # and a second tile may continue the first one's track
    _, after = act(state, 0, lay(place("straight", 6, 6, 1), place("curve", 6, 7, 2)))
    assert after.board.tile_count() == 2


def test_same_square_twice_is_refused() -> None:
    error = refusal({}, place("straight", 6, 6, 0), place("switch_left", 6, 6, 0))
    assert error.code == "same_square_twice"


def test_must_lay_two_while_a_pair_exists() -> None:
    assert refusal({}, place("straight", 6, 6, 0)).code == "must_lay_two"


def test_a_tile_must_be_in_hand_for_each_placement() -> None:
    state = state_of(hands=(("straight", "curve", "curve", "curve", "curve"), HAND))
    with pytest.raises(IllegalAction) as info:
        act(state, 0, lay(place("straight", 6, 6, 0), place("straight", 8, 6, 0)))
    assert info.value.code == "tile_not_in_hand"


def test_not_your_turn_and_finished() -> None:
    state = state_of(hands=(HAND, HAND))
    with pytest.raises(NotYourTurn):
        act(state, 1, lay(place("straight", 6, 6, 0), FILLER))
    over = dataclasses.replace(state, finished=True)
    with pytest.raises(GameFinished):
        act(over, 0, lay(place("straight", 6, 6, 0), FILLER))
