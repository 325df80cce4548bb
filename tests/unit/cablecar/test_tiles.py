"""Tile orientations and the lookup tables, checked against brute force."""

from __future__ import annotations

import itertools

from domain.cablecar.geometry import EDGES, E, N, S, W
from domain.cablecar.tiles import (
    DISTINCT,
    ORIENTATION,
    TILE_IDS,
    TREE_TILES,
    Orientation,
    fits,
    fitting,
    is_upgrade,
    upgrades,
)
from tests.unit.cablecar.invariants import tile_supply


def edges_with_track(orientation: Orientation) -> tuple[int, ...]:
    """The edges (0-3) of an orientation that carry track."""
    return tuple(e for e in EDGES if orientation.edges >> e & 1)


def test_rotating_a_curve_turns_it_clockwise() -> None:
    assert edges_with_track(ORIENTATION[("curve", 0)]) == (N, E)
    assert edges_with_track(ORIENTATION[("curve", 1)]) == (E, S)
    assert edges_with_track(ORIENTATION[("curve", 2)]) == (S, W)
    assert edges_with_track(ORIENTATION[("curve", 3)]) == (N, W)


def test_distinct_orientations_per_tile() -> None:
    counts = {t: len(DISTINCT[t]) for t in TILE_IDS}
    assert counts == {
        "straight": 2,
        "curve": 4,
        "switch_left": 4,
        "switch_right": 4,
        "double_curve": 4,
        "two_opposite_curves": 2,
        "tree_wye": 4,
        "tree_three_way": 4,
        "tree_roundabout": 1,
        "tree_crossing": 1,
        "tree_straight_two_curves_a": 2,
        "tree_straight_two_curves_b": 2,
    }
    assert [o.rotation for o in DISTINCT["straight"]] == [0, 1]


def test_tree_tiles() -> None:
    assert {t for t in TILE_IDS if t.startswith("tree_")} == TREE_TILES
    assert tile_supply().total() == 126


def test_fitting_table_matches_brute_force() -> None:
    for tile, must, forbid in itertools.product(TILE_IDS, range(16), range(16)):
        expected = [o for o in DISTINCT[tile] if fits(o, must, forbid)]
        assert list(fitting(tile, must, forbid)) == expected


def test_upgrades_keep_every_segment_and_add_one() -> None:
    straight = ORIENTATION[("straight", 0)]
    found = {(o.tile, o.rotation) for t in TILE_IDS for o in upgrades(t, straight)}
    assert ("switch_left", 0) in found and ("switch_right", 2) in found
    assert ("tree_crossing", 0) in found
    assert ("straight", 0) not in found and ("straight", 2) not in found
    for t in TILE_IDS:
        for old in ORIENTATION.values():
            assert all(is_upgrade(old, o) for o in upgrades(t, old))
            assert len(upgrades(t, old)) == sum(1 for o in DISTINCT[t] if is_upgrade(old, o))
