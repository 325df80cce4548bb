"""The fast move generators against brute force and against decide."""

from __future__ import annotations

import collections
import functools
import random
from collections.abc import Iterable

import pytest

from domain.cablecar import GAME
from domain.cablecar.actions import LayTiles, Placement
from domain.cablecar.board import Board
from domain.cablecar.candidates import joint_firsts, seconds_after, single_placements
from domain.cablecar.geometry import NEIGHBOUR, STOPS_NEXT_TO, TILE_SQUARES, square_index, square_of
from domain.cablecar.pairs import legal_pairs
from domain.cablecar.placement import apply, check_placement, check_turn, resolve
from domain.cablecar.state import CableCarState
from domain.cablecar.tiles import DISTINCT, ORIENTATION, ROTATIONS, TILE_IDS
from domain.errors import IllegalAction
from tests.unit.cablecar.helpers import board_of, play_random, state_of

Pair = tuple[Placement, Placement]


def canonical(p: Placement) -> Placement:
    """The placement in the lowest rotation with the same track."""
    segments = ORIENTATION[(p.tile, p.rotation)].segments
    low = next(o for o in DISTINCT[p.tile] if o.segments == segments)
    return Placement(p.tile, p.row, p.col, low.rotation)


def _square(p: Placement) -> int:
    return square_index(p.row, p.col)


def order_free(board: Board, pair: Pair) -> bool:
    """Two placements on empty squares that do not race for a stop (listed once)."""
    a, b = (_square(p) for p in pair)
    if board.cells[a] is not None or board.cells[b] is not None:
        return False
    shared = set(STOPS_NEXT_TO[a]) & set(STOPS_NEXT_TO[b])
    return all(board.stop_tile(letter) is not None for letter in shared)


def normalise(board: Board, pairs: Iterable[Pair]) -> set[Pair]:
    out: set[Pair] = set()
    for pair in pairs:
        a, b = canonical(pair[0]), canonical(pair[1])
        if order_free(board, (a, b)) and _square(b) < _square(a):
            a, b = b, a
        out.add((a, b))
    return out


def brute_singles(board: Board, hand: tuple[str, ...]) -> set[Placement]:
    found: set[Placement] = set()
    for tile in TILE_IDS:
        for rotation in ROTATIONS:
            for row in range(1, 13):
                for col in range(1, 13):
                    p = Placement(tile, row, col, rotation)
                    try:
                        check_placement(board, hand, p)
                    except IllegalAction:
                        continue
                    found.add(canonical(p))
    return found


def reference_pairs(board: Board, hand: tuple[str, ...]) -> set[Pair]:
    """Pairs from the simple generators (first alone, then seconds from scratch)."""
    pairs = [
        (first, second)
        for first in single_placements(board, hand)
        for second in seconds_after(board, hand, first)
    ]
    pairs += [
        (first, second)
        for first, _ in joint_firsts(board, hand)
        for second in seconds_after(board, hand, first)
    ]
    return normalise(board, pairs)


def brute_pairs(board: Board, hand: tuple[str, ...]) -> set[Pair]:
    """Every (tile, rotation, square) pair that check_turn accepts (slow: small cases only).

    Shortcut faithful to check_turn: a first placement refused alone can only
    be redeemed by an exchange on an adjacent occupied square, so only those
    seconds are tried with it.
    """

    @functools.cache
    def every(tiles: frozenset[str]) -> list[Placement]:
        return [
            Placement(t, *square_of(sq), r) for t in sorted(tiles) for r in ROTATIONS for sq in TILE_SQUARES
        ]

    on_board = frozenset(cell.tile for cell in board.cells if cell is not None)
    found: list[Pair] = []
    for first in (
        Placement(t, *square_of(sq), r) for t in dict.fromkeys(hand) for r in ROTATIONS for sq in TILE_SQUARES
    ):
        try:
            square, _ = resolve(board, hand, first)
        except IllegalAction:
            continue
        try:
            laid = check_placement(board, hand, first)
        except IllegalAction:
            for second in every(frozenset(hand) | on_board):
                target = _square(second)
                if (
                    board.cells[square] is None
                    or board.cells[target] is None
                    or target not in NEIGHBOUR[square]
                ):
                    continue
                try:
                    check_turn(board, hand, (first, second))
                except IllegalAction:
                    continue
                found.append((first, second))
            continue
        board1, hand1 = apply(board, hand, laid)
        for second in every(frozenset(hand1)):
            if _square(second) == square:
                continue
            try:
                check_placement(board1, hand1, second)
            except IllegalAction:
                continue
            found.append((first, second))
    return normalise(board, found)


@functools.cache
def sample_states() -> tuple[CableCarState, ...]:
    """States taken along random games at several stages."""
    states: list[CableCarState] = []
    for players, seed in ((2, "a"), (4, "b"), (6, "c")):
        _, history = play_random(players, seed, random.Random(seed))
        states += [history[i] for i in (0, len(history) // 3, 2 * len(history) // 3, len(history) - 2)]
    return tuple(s for s in states if not s.finished and not s.players[s.turn].riding)


@pytest.mark.parametrize("index", range(6))
def test_single_placements_match_brute_force(index: int) -> None:
    state = sample_states()[index * 2 % len(sample_states())]
    hand = state.players[state.turn].hand
    fast = single_placements(state.board, hand)
    assert len(fast) == len(set(fast))
    assert set(fast) == brute_singles(state.board, hand)


@pytest.mark.parametrize("index", range(4))
def test_legal_pairs_match_the_reference_generator(index: int) -> None:
    state = sample_states()[(index * 3 + 1) % len(sample_states())]
    hand = state.players[state.turn].hand
    fast = legal_pairs(state.board, hand)
    assert len(fast) == len(set(fast)), "no pair is listed twice"
    assert set(fast) == reference_pairs(state.board, hand)


def test_legal_pairs_match_brute_force_on_a_crowded_board() -> None:
    late = [s for s in sample_states() if s.board.tile_count() > 95]
    assert late
    state = late[0]
    hand = tuple(dict.fromkeys(state.players[state.turn].hand))[:2]
    assert set(legal_pairs(state.board, hand)) == brute_pairs(state.board, hand)


def test_legal_pairs_list_both_orders_of_a_race_for_a_stop() -> None:
    hand = ("straight", "straight", "curve")
    board = board_of({})
    pairs = legal_pairs(board, hand)
    below_m, right_of_m = Placement("straight", 5, 6, 1), Placement("straight", 4, 7, 0)
    assert (below_m, right_of_m) in pairs and (right_of_m, below_m) in pairs
    # order-free pairs are listed once, the lower square first
    a, b = Placement("straight", 6, 6, 0), Placement("straight", 8, 8, 0)
    assert (a, b) in pairs and (b, a) not in pairs


def test_legal_pairs_on_a_double_exchange_board_match_brute_force() -> None:
    tiles = {(6, 6): ("straight", 0), (6, 7): ("straight", 0), (7, 6): ("curve", 0)}
    hand = ("switch_right", "switch_left")
    board = board_of(tiles)
    fast = set(legal_pairs(board, hand))
    assert (Placement("switch_right", 6, 6, 0), Placement("switch_left", 6, 7, 0)) in fast
    assert fast == brute_pairs(board, hand)


def test_every_legal_action_is_accepted() -> None:
    rnd = random.Random(7)
    for state in sample_states()[:6]:
        actions = GAME.legal_actions(state, state.turn)
        assert actions
        for action in rnd.sample(actions, min(40, len(actions))):
            GAME.decide(state, state.turn, action)


def test_legal_actions_lay_one_only_when_no_pair_exists() -> None:
    state = state_of(hands=(("curve",), ("curve",)), pile=())
    actions = GAME.legal_actions(state, 0)
    assert actions and all(isinstance(a, LayTiles) and len(a.placements) == 1 for a in actions)
    counts = collections.Counter(len(a.placements) for a in GAME.legal_actions(state_of(), 0))  # type: ignore[attr-defined]
    assert set(counts) == {2}


def test_no_legal_actions_for_other_seats() -> None:
    state = state_of()
    assert GAME.legal_actions(state, 1) == []
