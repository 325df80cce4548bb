"""Squares, edges, rotation, neighbours and the static edge kinds."""

from __future__ import annotations

import pytest

from domain.cablecar.geometry import (
    EDGE_KIND,
    NEIGHBOUR,
    SEGMENT_BIT,
    STOPS_NEXT_TO,
    TERMINAL_END,
    E,
    EdgeKind,
    N,
    S,
    W,
    direction,
    edge_mask_of_segments,
    rotate,
    segment_mask,
    square_index,
    square_of,
)


def test_square_index_round_trips_and_rejects_off_board() -> None:
    assert square_index(1, 1) == 0
    assert square_index(12, 12) == 143
    assert all(square_of(square_index(r, c)) == (r, c) for r in range(1, 13) for c in range(1, 13))
    for bad in ((0, 1), (13, 1), (1, 0), (1, 13)):
        with pytest.raises(ValueError):
            square_index(*bad)


def test_rotation_is_clockwise_and_opposites_face() -> None:
    assert [rotate(N, r) for r in range(4)] == [N, E, S, W]
    assert rotate(W, 1) == N
    centre = square_index(6, 6)
    assert [NEIGHBOUR[NEIGHBOUR[centre][e]][e ^ 2] for e in (N, E, S, W)] == [centre] * 4  # e ^ 2 faces e


def test_neighbours_follow_the_compass() -> None:
    centre = square_index(6, 6)
    assert NEIGHBOUR[centre] == (
        square_index(5, 6),
        square_index(6, 7),
        square_index(7, 6),
        square_index(6, 5),
    )
    assert NEIGHBOUR[square_index(1, 1)] == (-1, square_index(1, 2), square_index(2, 1), -1)
    assert direction(centre, square_index(5, 6)) == N


def segment_pairs(mask: int) -> tuple[tuple[int, int], ...]:
    """The edge pairs ``(low, high)`` of a segment mask."""
    pairs: list[tuple[int, int]] = []
    for pair, bit in SEGMENT_BIT.items():
        if mask & bit:
            low, high = sorted(pair)
            pairs.append((low, high))
    return tuple(pairs)


def test_segment_masks() -> None:
    crossing = segment_mask(((N, S), (E, W)))
    assert segment_pairs(crossing) == ((N, S), (E, W))
    assert edge_mask_of_segments(crossing) == 0b1111
    assert edge_mask_of_segments(segment_mask(((N, E),))) == 0b0011


def test_edge_kinds() -> None:
    # (1, 5): north is the plain board edge
    assert EDGE_KIND[square_index(1, 5)][N] is EdgeKind.OFF_BOARD
    # (1, 6): north is the end of Fisherman's Wharf
    assert EDGE_KIND[square_index(1, 6)][N] is EdgeKind.TERMINAL
    assert TERMINAL_END[(square_index(1, 6), N)].name == "Fisherman's Wharf"
    # (5, 6): north is stop M (4, 6)
    assert EDGE_KIND[square_index(5, 6)][N] is EdgeKind.STOP
    assert EDGE_KIND[square_index(6, 6)][N] is EdgeKind.SQUARE


def test_stops_next_to() -> None:
    assert STOPS_NEXT_TO[square_index(5, 6)] == ("M",)
    assert STOPS_NEXT_TO[square_index(6, 6)] == ()
    # every stop has at least two squares around it where its tile can go
    counts: dict[str, int] = {}
    for letters in STOPS_NEXT_TO:
        for letter in letters:
            counts[letter] = counts.get(letter, 0) + 1
    assert len(counts) == 12 and min(counts.values()) >= 2
