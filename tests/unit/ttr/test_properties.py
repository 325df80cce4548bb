"""Property tests: random legal games of 2, 3 and 4 players played to the end.

After every event: 44 cards, 21 tokens and 24 tickets accounted for, cars
never negative, scores equal the recount, no seat sees another seat's secret.
Every move: listed actions are accepted (a sample), a fuzzed action is
accepted exactly when it is listed (else refused with a DomainError, state
untouched), events survive JSON, and ``action_of`` + ``decide`` reproduce the
recorded move.  At the end: replaying the (JSON round-tripped) events gives
the same state.

Default: ``TTR_GAMES`` games per player count (20); ``HYPOTHESIS_PROFILE=thorough``
plays 2000 per player count.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core import Event, GameConfig, replay
from domain.errors import DomainError
from domain.ttr import GAME
from domain.ttr.events import TicketsDealt, TicketsDrawn
from domain.ttr.state import TtrState

from .games import Policy, equivalent_listed, fuzz_action
from .invariants import check_secrets, check_state, round_trip

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
GAMES = int(os.environ.get("TTR_GAMES", "2000" if THOROUGH else "20"))
SAMPLED_LEGAL = 10 if THOROUGH else 3
MAX_MOVES = 2000


def _learn(seen: dict[int | None, set[str]], event: Event) -> None:
    """Record the ticket ids a seat legitimately learns from ``event``."""
    if isinstance(event, TicketsDealt):
        for seat, tickets in enumerate(event.tickets):
            seen[seat].update(tickets or ())
    elif isinstance(event, TicketsDrawn):
        seen[event.seat].update(event.tickets or ())


def play_checked(
    players: int, seed: str, start_seat: int, rnd: random.Random
) -> tuple[list[Event], TtrState]:
    """Play one random game, checking every invariant on the way."""
    events = GAME.setup(
        GameConfig(players=tuple(f"P{i}" for i in range(players)), seed=seed, start_seat=start_seat)
    )
    seen: dict[int | None, set[str]] = {seat: set() for seat in (*range(players), None)}
    state: TtrState | None = None
    for event in events:
        state = GAME.evolve(state, event)
        _learn(seen, event)
        check_state(state)
        check_secrets(state, [event], seen)
    assert state is not None
    policy = Policy.for_game(rnd)
    for _ in range(MAX_MOVES):
        if GAME.status(state) == "finished":
            break
        seat = rnd.choice(GAME.active_seats(state))
        legal = GAME.legal_actions(state, seat)
        assert legal, "an active seat always has a legal action"
        for action in rnd.sample(legal, min(SAMPLED_LEGAL, len(legal))):
            GAME.decide(state, seat, action)
        fuzz_seat = rnd.randrange(players)
        fuzzed = fuzz_action(rnd, state, fuzz_seat)
        before = state
        try:
            GAME.decide(state, fuzz_seat, fuzzed)
        except DomainError:
            assert not equivalent_listed(state, fuzz_seat, fuzzed, GAME.legal_actions(state, fuzz_seat)), (
                fuzzed
            )
        else:
            assert equivalent_listed(state, fuzz_seat, fuzzed, GAME.legal_actions(state, fuzz_seat)), fuzzed
        assert state == before
        action = policy.choose(rnd, legal)
        batch = GAME.decide(state, seat, action)
        recovered = GAME.action_of(batch[0])
        assert recovered is not None and recovered[0] == seat
        assert GAME.decide(state, *recovered) == batch, "action_of + decide reproduce the move"
        assert all(GAME.action_of(e) is None for e in batch[1:])
        for event in batch:
            assert round_trip(event) == event
            state = GAME.evolve(state, event)
            _learn(seen, event)
            check_state(state)
        check_state(state, settled=True)
        check_secrets(state, batch, seen)
        events += batch
    assert GAME.status(state) == "finished", "games always end"
    assert replay(GAME, events) == state
    assert replay(GAME, [round_trip(e) for e in events]) == state
    result = GAME.result(state)
    assert result is not None and result["winners"]
    return events, state


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(
    max_examples=GAMES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.text(max_size=12), start=st.integers(0, 3), rnd=st.randoms(use_true_random=False))
def test_random_games(players: int, seed: str, start: int, rnd: random.Random) -> None:
    play_checked(players, seed, start % players, rnd)
