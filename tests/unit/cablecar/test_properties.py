"""Property tests: random legal games for 2-6 players keep every invariant.

Default: a handful of games per property (well under a minute).  Set
``HYPOTHESIS_PROFILE=thorough`` for hundreds of games.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cablecar import GAME
from domain.cablecar.actions import PathStep
from domain.cablecar.events import GameSetUp
from domain.cablecar.geometry import NEIGHBOUR, STOP_SQUARE, square_of
from domain.cablecar.network import trace_path
from domain.cablecar.state import CableCarState
from domain.core import Event, decode_event, replay
from tests.unit.cablecar.helpers import play_from, play_random, ride_ready
from tests.unit.cablecar.invariants import board_violations, tile_supply, unfillable_squares

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
GAMES = settings(
    max_examples=300 if THOROUGH else 25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=not THOROUGH,
)
MAX_TURNS = 400

games = st.tuples(
    st.integers(min_value=2, max_value=6),
    st.text(alphabet="abcdefghij0123456789", min_size=1, max_size=8),
    st.integers(min_value=0, max_value=2**32 - 1),
)


def check_tiles(state: CableCarState) -> None:
    """All 126 tiles are in the pile, a hand or on the board."""
    on_board = Counter(o.tile for _, o in state.board.placed())
    held = Counter(t for p in state.players for t in p.hand)
    assert Counter(state.pile) + held + on_board == tile_supply()


def check_stops(state: CableCarState) -> None:
    """A stop has a tile iff a tile lies next to it, and that tile is next to it."""
    for letter, stop_square in STOP_SQUARE.items():
        around = [n for n in NEIGHBOUR[stop_square] if n >= 0]
        tile_square = state.board.stop_tile(letter)
        if tile_square is None:
            assert all(state.board.cells[n] is None for n in around)
        else:
            assert tile_square in around and state.board.cells[tile_square] is not None


def check_secrets(state: CableCarState, setup: GameSetUp) -> None:
    """No view or redacted setup event shows a seat's line or route before it is revealed."""
    for seat in [None, *range(state.player_count)]:
        view = GAME.view(state, seat)
        text = json.dumps(view)
        seen = GAME.redact(state, setup, seat)
        for other, player in enumerate(state.players):
            if other == seat or state.revealed(other):
                continue
            assert view["players"][other]["line"] is None and view["players"][other]["route"] is None
            assert seen["lines"][other] is None and seen["routes"][other] is None
            assert seen["route_cards"][other] is None
            assert player.route_card not in text
        if not state.finished:
            assert seen["pile"] is None and seen["rng_key"] is None


def check_moves_replay(events: list[Event], start: CableCarState | None = None) -> None:
    """Re-deciding every move from the state before it reproduces the recorded events.

    Without ``start`` the events begin with the setup (and any opening passes).
    """
    i = 0
    if start is None:
        start = replay(GAME, events[:1])
        i = 1
    state = start
    while i < len(events) and GAME.action_of(events[i]) is None:
        state = GAME.evolve(state, events[i])
        i += 1
    while i < len(events):
        found = GAME.action_of(events[i])
        assert found is not None, f"event {i} ({events[i].TYPE}) does not start a move"
        seat, action = found
        produced = GAME.decide(state, seat, action)
        assert produced == events[i : i + len(produced)]
        state = replay(GAME, produced, state)
        i += len(produced)


@GAMES
@given(games)
def test_random_games_keep_every_invariant(game: tuple[int, str, int]) -> None:
    players, seed, choices = game
    events, states = play_random(players, seed, random.Random(choices), MAX_TURNS)
    setup = events[0]
    assert isinstance(setup, GameSetUp)
    for state in states:
        check_tiles(state)
        check_stops(state)
        assert board_violations(state.board) == []
        assert unfillable_squares(state.board) == []  # rule 5, further travel
        assert GAME.active_seats(state) == (() if state.finished else (state.turn,))
        if state.drawing:  # every listed draw is one decide accepts
            for action in GAME.legal_actions(state, state.turn):
                GAME.decide(state, state.turn, action)
    for state in states[:: max(1, len(states) // 6)] + states[-1:]:
        check_secrets(state, setup)
    final = states[-1]
    assert final.finished or len(states) > MAX_TURNS
    if final.finished:
        assert final.end_reason in {"stalled", "destination_reached"}
        assert (final.end_reason == "stalled") == (final.winners == ())
    assert replay(GAME, events) == final


@GAMES
@given(games)
def test_events_survive_json_and_moves_replay_through_decide(game: tuple[int, str, int]) -> None:
    players, seed, choices = game
    events, _ = play_random(players, seed, random.Random(choices), MAX_TURNS)
    decoded = [decode_event(GAME, e.TYPE, json.loads(json.dumps(e.to_payload()))) for e in events]
    assert decoded == events
    check_moves_replay(events)


@GAMES
@given(
    st.integers(min_value=2, max_value=6),
    st.text(alphabet="abc", min_size=1, max_size=4),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_games_with_a_rider_run_to_its_destination(players: int, seed: str, choices: int) -> None:
    start = ride_ready(players, seed)
    check_tiles(start)
    check_stops(start)
    events, states = play_from(start, random.Random(choices), MAX_TURNS)
    assert events[0].TYPE == "ride_started"
    for state in states:
        check_tiles(state)
        check_stops(state)
        assert board_violations(state.board) == []
        if state.drawing:  # the riders' open hands offer a choice: each listed draw is accepted
            for action in GAME.legal_actions(state, state.turn):
                GAME.decide(state, state.turn, action)
        rider = state.players[start.turn]
        if rider.ride is not None:
            # the fixed path stays drivable whatever is exchanged under it
            assert (
                trace_path(
                    state.board, rider.line, rider.route, rider.ride.origin, steps_of(rider.ride.spaces)
                ).spaces
                == rider.ride.spaces
            )
    final = states[-1]
    assert final.finished and final.end_reason == "destination_reached"
    winner = final.winners[0]
    ride = final.players[winner].ride
    assert ride is not None and ride.position == len(ride.spaces) - 1  # on its destination
    assert replay(GAME, events, start) == final
    check_moves_replay(events, start)


def steps_of(spaces: tuple[object, ...]) -> tuple[PathStep, ...]:
    return tuple(s if isinstance(s, str) else square_of(s) for s in spaces[1:-1])  # type: ignore[arg-type]
