"""``PairTables.count`` is the number of pairs ``chunks`` lists, on every position.

The count does not walk the pairs: it adds index lengths and per-tile table
lookups, recomputing only the squares a first placement changes.  Under rule
5 (``cable-car/2``) those include squares two away across an empty square,
whose rule-5 bits a first tile may change; the hand-built boards below are
positions where it does, in both directions (a tree's bare edge forbidding
track two away, track obliging a tree two away to answer it).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cablecar import GAME
from domain.cablecar.actions import Placement
from domain.cablecar.board import Board
from domain.cablecar.pairs import PairTables
from domain.cablecar.placement import check_turn
from domain.cablecar.tiles import TILE_IDS
from domain.core import GameConfig, replay
from domain.errors import IllegalAction
from tests.unit.cablecar.helpers import NAMES, board_of, play_from

RULES = ("cable-car/1", "cable-car/2")


def walked(board: Board, hand: tuple[str, ...]) -> int:
    return sum(len(seconds) for _, seconds in PairTables(board, hand).chunks())


def assert_counted(board: Board, hand: tuple[str, ...]) -> None:
    assert PairTables(board, hand).count() == walked(board, hand), (board.rules, hand)


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    players=st.integers(min_value=2, max_value=6),
    seed=st.text(alphabet="abcdefghij0123456789", min_size=1, max_size=6),
    choices=st.integers(min_value=0, max_value=2**32 - 1),
    picks=st.lists(st.floats(min_value=0, max_value=1), min_size=3, max_size=3),
    hands=st.lists(st.lists(st.sampled_from(TILE_IDS), min_size=1, max_size=6), min_size=3, max_size=3),
)
def test_the_count_is_the_walked_length_on_random_positions(
    rules: str, players: int, seed: str, choices: int, picks: list[float], hands: list[list[str]]
) -> None:
    """Positions along a random legal game (openings to full boards, with
    exchanges, tree tiles and stops claimed or raced for), each with the hand
    of the seat to play and with an arbitrary hand (tiles it may exchange in)."""
    config = GameConfig(players=NAMES[:players], seed=seed, start_seat=0, rules_version=rules)
    _, states = play_from(replay(GAME, GAME.setup(config)), random.Random(choices), 200)
    for pick, hand in zip(picks, hands, strict=True):
        state = states[min(len(states) - 1, int(pick * len(states)))]
        assert state.board.rules == (1 if rules == "cable-car/1" else 2)
        assert_counted(state.board, state.players[state.turn].hand)
        assert_counted(state.board, tuple(hand))


def refused(board: Board, hand: tuple[str, ...], pair: tuple[Placement, Placement]) -> str | None:
    try:
        check_turn(board, hand, pair)
    except IllegalAction as e:
        return e.code
    return None


P = Placement
#: tree_wye rotations: 0 bare south, 1 bare west, 2 bare north, 3 bare east
WALL_NORTH_EAST = {(2, 9): ("tree_wye", 0), (3, 10): ("tree_wye", 1)}  # (3, 9) closed to the north and east
WALL_EAST_WEST = {(3, 8): ("tree_wye", 3), (3, 10): ("tree_wye", 1)}  # (3, 9) closed to the east and west

#: boards where a first tile changes what a square two away accepts (rule 5):
#: (tiles, hand, pairs refused under rule 5 that the first rules list, in either order)
TWO_AWAY = {
    # (4, 12): board edge east, stop H west; a tree bare towards it from (3, 12) closes it
    # to (5, 12), and track from (5, 12) obliges the tree to answer it
    "straight line": (
        {},
        ("tree_wye", "straight", "curve"),
        [
            (P("tree_wye", 3, 12, 0), P("straight", 5, 12, 0)),
            (P("straight", 5, 12, 0), P("tree_wye", 3, 12, 0)),
        ],
    ),
    # the same across the corner of (3, 9): (3, 8) and (4, 9) are diagonal
    "diagonal": (
        WALL_NORTH_EAST,
        ("tree_wye", "straight", "curve"),
        [
            (P("tree_wye", 3, 8, 3), P("straight", 4, 9, 0)),
            (P("straight", 4, 9, 0), P("tree_wye", 3, 8, 3)),
            (P("straight", 3, 8, 1), P("tree_wye", 4, 9, 2)),
            (P("tree_wye", 4, 9, 2), P("straight", 3, 8, 1)),
        ],
    ),
    # an exchange for a tree tile bare towards (3, 9) closes it to (4, 9)
    "exchange for a tree": (
        {**WALL_EAST_WEST, (2, 9): ("curve", 0)},
        ("tree_wye", "straight", "curve"),
        [(P("tree_wye", 2, 9, 0), P("straight", 4, 9, 0)), (P("straight", 4, 9, 0), P("tree_wye", 2, 9, 0))],
    ),
    # an exchange adding track towards (3, 9) obliges a tree on (4, 9) to answer it
    "exchange adding track": (
        {**WALL_NORTH_EAST, (3, 8): ("straight", 0)},
        ("switch_left", "tree_wye", "curve"),
        [
            (P("switch_left", 3, 8, 2), P("tree_wye", 4, 9, 2)),
            (P("tree_wye", 4, 9, 2), P("switch_left", 3, 8, 2)),
        ],
    ),
}


@pytest.mark.parametrize("rules", [1, 2])
@pytest.mark.parametrize("case", TWO_AWAY)
def test_a_first_tile_two_away_is_counted(case: str, rules: int) -> None:
    tiles, hand, pairs = TWO_AWAY[case]
    board = dataclasses.replace(board_of(tiles), rules=rules)
    assert PairTables(board, hand).count() == walked(board, hand)
    firsts = {first for pair in pairs for first in pair}
    listed = {(f, s) for f, seconds in PairTables(board, hand).chunks() if f in firsts for s in seconds}
    for pair in pairs:
        if rules == 1:
            assert refused(board, hand, pair) is None
            assert pair in listed or pair[::-1] in listed  # order-free pairs are listed once
        else:
            assert refused(board, hand, pair) == "dead_end"
            assert pair not in listed
