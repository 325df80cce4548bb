"""Route completeness, the shortest path and checking a requested path."""

from __future__ import annotations

import pytest

from domain.cablecar.actions import PathStep
from domain.cablecar.board import Board
from domain.cablecar.geometry import square_index, square_of
from domain.cablecar.network import best_path, line_terminals, shortest_path, trace_path
from domain.errors import IllegalAction
from tests.unit.cablecar.helpers import board_of, presidio_route_board
from tests.unit.cablecar.invariants import board_violations

STOPS = {"H": (4, 10), "M": (3, 6)}
ROUTE = ("H", "M")


def is_complete(board: Board, line_id: str, route: tuple[str, ...]) -> bool:
    """Whether the line's network is complete (a complete path exists)."""
    first = line_terminals(line_id)[0]
    return shortest_path(board, line_id, route, first.name) is not None


def presidio_board(**changes: tuple[str, int]):  # type: ignore[no-untyped-def]
    tiles = presidio_route_board()
    for key, tile in changes.items():
        row, col = (int(x) for x in key[1:].split("_"))
        tiles[(row, col)] = tile
    board = board_of(tiles, STOPS)
    assert board_violations(board) == []
    return board


def squares_of(path_spaces: tuple[object, ...]) -> list[PathStep]:
    return [square_of(s) if isinstance(s, int) else s for s in path_spaces[1:-1]]  # type: ignore[misc]


def test_a_complete_network_has_a_path_over_another_lines_loop() -> None:
    path = best_path(presidio_board(), "3", ROUTE)
    assert path is not None
    assert path.origin == "Presidio" and path.destination == "Mission Bay"
    assert path.spaces[0] == "Presidio" and path.spaces[-1] == "Mission Bay"
    i = path.spaces.index("Ferry Building")
    assert path.spaces[i - 1] == square_index(3, 12) and path.spaces[i + 1] == square_index(2, 12)
    # 25 squares (the crossing (3, 10) twice) plus the Ferry Building loop, one space
    assert len(path.squares()) == 25
    assert path.squares().count(square_index(3, 10)) == 2
    assert path.length == 27


def test_both_directions_are_equally_long() -> None:
    board = presidio_board()
    there = shortest_path(board, "3", ROUTE, "Presidio")
    back = shortest_path(board, "3", ROUTE, "Mission Bay")
    assert there is not None and back is not None
    assert back.length == there.length
    assert back.squares() == tuple(reversed(there.squares()))


def test_the_route_stops_may_be_passed_in_any_order() -> None:
    board = presidio_board()
    assert is_complete(board, "3", ("M", "H")) and is_complete(board, "3", ("H", "M"))


def test_a_stop_without_a_tile_or_off_the_track_is_not_passed() -> None:
    board = presidio_board()
    assert not is_complete(board, "3", ("H", "M", "I"))  # stop I has no tile
    assert not is_complete(board_of(presidio_route_board(), {**STOPS, "A": (8, 11)}), "3", ("A",))


def test_another_line_is_not_complete_on_this_track() -> None:
    assert not is_complete(presidio_board(), "1", ())


@pytest.mark.parametrize(
    "corner",
    [
        ("tree_crossing", 0),  # straight through: E-W and N-S, no turn
        ("two_opposite_curves", 0),  # N-E and S-W: the E entry turns north
        ("switch_right", 1),  # E-W and W-S: from E only straight on
    ],
)
def test_a_route_joined_only_through_a_forbidden_turn_is_not_complete(corner: tuple[str, int]) -> None:
    # (2, 10) is the corner where the tram comes from the east and must turn south
    board = presidio_board(r2_10=corner)
    assert board.edges[square_index(2, 10)] & 0b0110 == 0b0110  # track meets both neighbours
    assert best_path(board, "3", ROUTE) is None


def test_a_requested_path_is_checked_and_read_as_spaces() -> None:
    board = presidio_board()
    shortest = best_path(board, "3", ROUTE)
    assert shortest is not None
    steps = squares_of(shortest.spaces)
    assert "Ferry Building" in steps
    assert trace_path(board, "3", ROUTE, "Presidio", steps).spaces == shortest.spaces
    # the loop need not be named: (3, 12) -> (2, 12) can only be driven over it
    unnamed = [s for s in steps if not isinstance(s, str)]
    assert trace_path(board, "3", ROUTE, "Presidio", unnamed).spaces == shortest.spaces


def bypass_board():  # type: ignore[no-untyped-def]
    """The Presidio track with a detour (3,5) -> (2,5) (2,6) (2,7) -> (3,7) around M's tile (3,6)."""
    return presidio_board(
        r3_5=("switch_left", 1),
        r2_5=("curve", 1),
        r2_6=("straight", 1),
        r2_7=("curve", 2),
        r3_7=("switch_right", 3),
    )


def test_a_requested_path_must_pass_every_stop_of_the_route() -> None:
    board = bypass_board()
    shortest = best_path(board, "3", ROUTE)
    assert shortest is not None and square_index(3, 6) in shortest.squares()
    steps = squares_of(shortest.spaces)
    detour = steps[:5] + [(2, 5), (2, 6), (2, 7)] + steps[6:]
    with pytest.raises(IllegalAction) as info:
        trace_path(board, "3", ROUTE, "Presidio", detour)
    assert info.value.code == "bad_path" and "stop M" in info.value.detail
    # without M on the route the detour is a fine, longer ride
    ride = trace_path(board, "3", ("H",), "Presidio", detour)
    assert ride.length == shortest.length + 2


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s[1:], "must start on a square next to terminal Presidio"),
        (lambda s: s[:-1], "must end by driving into terminal Mission Bay"),
        (lambda s: s[:3] + s[4:], "cannot drive on"),
        (lambda s: [*s[:3], (3, 4), *s[3:]], "cannot drive on"),
        (lambda s: [*s[:3], "Castro", *s[3:]], "cannot drive on"),
        (lambda s: [*s[:3], "Nowhere", *s[3:]], "is not a terminal"),
        (lambda s: [*s, (0, 0)], "not on the board"),
        (lambda s: [*s, (12, 12)], "no tile on (12, 12)"),
        (lambda s: ["Ferry Building", *s], "between two squares"),
    ],
)
def test_bad_requested_paths(mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    board = presidio_board()
    shortest = best_path(board, "3", ROUTE)
    assert shortest is not None
    with pytest.raises(IllegalAction) as info:
        trace_path(board, "3", ROUTE, "Presidio", mutate(squares_of(shortest.spaces)))
    assert info.value.code == "bad_path"
    assert message in info.value.detail


def test_a_path_may_not_drive_over_its_own_terminal() -> None:
    # line 1 owns Ferry Building, so its loop cannot be driven over mid-ride
    board = presidio_board()
    assert shortest_path(board, "1", (), "Ocean Beach") is None


def test_a_path_must_leave_its_terminal_along_track() -> None:
    # a crafted (illegal) board: (2, 1) holds a N-S straight in front of Presidio's end
    tiles = {**presidio_route_board(), (2, 1): ("straight", 0)}
    board = board_of(tiles, STOPS)
    shortest = best_path(board, "3", ROUTE)
    assert shortest is not None
    with pytest.raises(IllegalAction) as info:
        trace_path(board, "3", ROUTE, "Presidio", [(2, 1), *squares_of(shortest.spaces)])
    assert "has no track from terminal Presidio" in info.value.detail
