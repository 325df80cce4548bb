"""The packaged components and the static board payload."""

from __future__ import annotations

import json
from collections import Counter

from domain.cablecar import GAME
from domain.cablecar.components import COMPONENTS
from domain.cablecar.geometry import STOP_AT, TERMINAL_END, on_board, square_index


def test_tile_supply_is_126_with_25_start_tiles() -> None:
    assert sum(t.total for t in COMPONENTS.tile_types) == 126
    assert sum(t.start_tiles for t in COMPONENTS.tile_types) == 25
    starts = {t.id: t.start_tiles for t in COMPONENTS.tile_types if t.start_tiles}
    assert starts == {"straight": 15, "curve": 10}


def test_stops_are_twelve_letters_without_j_on_distinct_squares() -> None:
    letters = [s.letter for s in COMPONENTS.stops]
    assert letters == list("ABCDEFGHIKLM")
    assert len({(s.row, s.col) for s in COMPONENTS.stops}) == 12
    assert all(on_board(s.row, s.col) for s in COMPONENTS.stops)


def test_each_line_joins_opposite_edges_through_adjacent_edge_squares() -> None:
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    for line in COMPONENTS.lines:
        a, b = line.terminals
        assert opposite[a.edge] == b.edge
        for t in (a, b):
            (r1, c1), (r2, c2) = t.squares
            assert abs(r1 - r2) + abs(c1 - c2) == 1
            assert not any((r, c) in {(s.row, s.col) for s in COMPONENTS.stops} for r, c in t.squares)


def test_no_square_is_the_end_of_two_terminals() -> None:
    squares = Counter(sq for (sq, _edge) in TERMINAL_END)
    assert len(TERMINAL_END) == 24
    assert max(squares.values()) == 1


def test_route_cards_name_existing_stops_for_every_line() -> None:
    for deck, size in ((COMPONENTS.three_stop_cards, 3), (COMPONENTS.two_stop_cards, 2)):
        assert len(deck) == 6
        for card in deck:
            assert set(card.stops) == {line.id for line in COMPONENTS.lines}
            for stops in card.stops.values():
                assert len(set(stops)) == size
                assert all(square_index(*_stop_square(letter)) in STOP_AT for letter in stops)


def _stop_square(letter: str) -> tuple[int, int]:
    stop = next(s for s in COMPONENTS.stops if s.letter == letter)
    return stop.row, stop.col


def test_board_payload_has_what_a_client_draws() -> None:
    board = GAME.board()
    json.dumps(board)
    assert board["grid"]["rows"] == board["grid"]["cols"] == 12
    assert {s["letter"] for s in board["stops"]} == set("ABCDEFGHIKLM")
    ocean = board["lines"][0]["terminals"][0]
    assert ocean == {"name": "Ocean Beach", "edge": "W", "squares": [[6, 1], [7, 1]]}
    assert board["lines"][0]["color"] == "red"
    straight = next(t for t in board["tiles"] if t["id"] == "straight")
    assert straight == {
        "id": "straight",
        "segments": [["N", "S"]],
        "tree": False,
        "count": 36,
        "draw_pile": 21,
        "start_tiles": 15,
        "distinct_rotations": [0, 1],
    }
    assert board["die"] == ["1", "2", "3", "4", "H", "H"]
    assert "clockwise" in board["rotation"]


def test_game_metadata() -> None:
    assert GAME.type_id == "cable-car"
    assert GAME.title == "San Francisco cable cars"
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert GAME.rules_version == "cable-car/4" and GAME.board_version == "cable-car/1"
    assert GAME.legacy_rules_versions == ("cable-car/1", "cable-car/2", "cable-car/3")
