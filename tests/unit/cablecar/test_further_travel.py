"""Rule 5, further travel: no track into a square that no tile can ever fill.

Square (4, 12) has the board edge to the east and stop H (4, 11) to the
west.  A tree tile on (3, 12) whose south edge is bare closes a third side
for good, so track led into (4, 12) from (5, 12) could never go on.
"""

from __future__ import annotations

import dataclasses

import pytest

from domain.cablecar import GAME
from domain.cablecar.actions import LayTiles, Placement
from domain.cablecar.candidates import legal_placements
from domain.cablecar.ends import FILLABLE
from domain.cablecar.geometry import square_index
from domain.cablecar.placement import check_placement
from domain.cablecar.state import CableCarState
from domain.errors import IllegalAction
from tests.unit.cablecar.helpers import act, board_of, lay, place, state_of
from tests.unit.cablecar.invariants import board_violations, unfillable_squares

TREE_BARE_SOUTH = ("tree_wye", 0)  # E-W, N-W, N-E: no track on the south edge
INTO_4_12 = place("straight", 5, 12, 0)  # north-south: leads north into (4, 12)


def closed_state(hand: tuple[str, ...] = ("straight",) * 4 + ("curve",)) -> CableCarState:
    return state_of(board_of({(3, 12): TREE_BARE_SOUTH}), hands=(hand, ("curve",) * 5))


def refusal(state: CableCarState, action: LayTiles) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, 0, action)
    return info.value


def test_only_a_square_open_on_a_single_side_can_never_be_filled() -> None:
    # every tile joins two edges at least: one open side is hopeless, two are enough
    for must in range(16):
        for forbid in range(16):
            if must & forbid:
                assert not FILLABLE[must * 16 + forbid]
            elif must:
                assert FILLABLE[must * 16 + forbid] == (bin(forbid).count("1") < 3)


def test_track_into_a_square_no_tile_can_fill_is_refused() -> None:
    state = closed_state()
    refused = refusal(state, lay(INTO_4_12, place("straight", 8, 8, 0)))
    assert refused.code == "dead_end" and "(4, 12)" in refused.detail and "no tile can ever fill" in refused.detail
    # the same square turned away from (4, 12) is fine
    assert check_placement(state.board, state.players[0].hand, place("curve", 5, 12, 2))


def test_legal_actions_agree_and_never_offer_it() -> None:
    state = closed_state()
    singles = legal_placements(state, 0)
    assert INTO_4_12 not in singles and place("curve", 5, 12, 2) in singles
    pairs = [a for a in GAME.legal_actions(state, 0) if isinstance(a, LayTiles)]
    assert pairs and all(INTO_4_12 not in a.placements for a in pairs)
    for action in pairs[:: max(1, len(pairs) // 40)]:
        GAME.decide(state, 0, action)  # every listed pair is accepted


def test_a_tree_may_not_close_a_square_that_track_already_leads_into() -> None:
    board = board_of({(5, 12): ("straight", 0)})  # leads north into (4, 12), still open to the north
    state = state_of(board, hands=(("tree_wye", "tree_crossing", "straight"), ("curve",) * 5))
    bare = Placement("tree_wye", 3, 12, 0)
    with pytest.raises(IllegalAction) as info:
        check_placement(state.board, state.players[0].hand, bare)
    assert info.value.code == "dead_end" and "tree tile" in info.value.detail
    singles = legal_placements(state, 0)
    assert bare not in singles
    # a tree giving track to the south keeps (4, 12) open; so does any ordinary tile
    assert Placement("tree_crossing", 3, 12, 0) in singles
    assert any(p.tile == "straight" and (p.row, p.col) == (3, 12) for p in singles)
    assert GAME.decide(state, 0, lay(Placement("tree_crossing", 3, 12, 0), place("straight", 8, 8, 0)))


def test_boards_of_random_legal_games_never_strand_track() -> None:
    from random import Random

    from tests.unit.cablecar.helpers import play_random

    for seed in ("a", "b"):
        _, states = play_random(3, seed, Random(seed), max_turns=150)
        for state in states:
            assert unfillable_squares(state.board) == []
            assert board_violations(state.board) == []


def test_games_under_the_first_rules_still_accept_it() -> None:
    state = closed_state()
    legacy = dataclasses.replace(state, board=dataclasses.replace(state.board, rules=1))
    _, after = act(legacy, 0, lay(INTO_4_12, place("straight", 8, 8, 0)))
    assert after.board.cells[square_index(5, 12)] is not None
    assert unfillable_squares(after.board) == [square_index(4, 12)]
