"""What every registered game must satisfy (the conformance suite).

Parametrised over :data:`domain.registry.GAMES`: seeded setup is
deterministic; in seeded random games every listed action is accepted by
``decide`` and survives its JSON body; each move is reproduced from its first
event (what the verifier re-runs); the events replay (through JSON) to the
same state; views and redacted events never show a seat's secrets to anybody
else; and the games end within a bound.

A game's secrets are named per game in :data:`SECRETS` (ids that only their
holder may see until they are revealed); a new game adds its entry there.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from domain.core import Event, GameConfig, GameDefinition, decode_event, replay
from domain.registry import GAMES

#: how many listed actions are decided at each step (beyond the one played)
SAMPLED = 3
#: a random game that has not ended after this many moves fails
MAX_MOVES = 3000
#: secrets are checked every this many moves (and at the end)
SECRET_EVERY = 40


def _ttr_secrets(state: Any, seat: int) -> set[str]:
    """Held and pending ticket ids are their holder's until the end."""
    if state.finished:
        return set()
    player = state.players[seat]
    return {*player.tickets, *player.pending}


def _cablecar_secrets(state: Any, seat: int) -> set[str]:
    """A seat's line and route card are its own until it rides (or the end)."""
    if state.revealed(seat):
        return set()
    player = state.players[seat]
    return {player.line, player.route_card}


SECRETS: dict[str, Callable[[Any, int], set[str]]] = {
    "ttr-sf": _ttr_secrets,
    "cable-car": _cablecar_secrets,
}

DEFINITIONS = sorted(GAMES.values(), key=lambda g: g.type_id)


def _ids(game: GameDefinition[Any]) -> str:
    return game.type_id


def _config(game: GameDefinition[Any], players: int, seed: str) -> GameConfig:
    return GameConfig(players=tuple(f"p{i}" for i in range(players)), seed=seed)


def _round_trip(game: GameDefinition[Any], event: Event) -> Event:
    return decode_event(game, event.TYPE, json.loads(json.dumps(event.to_payload())))


def test_every_registered_game_names_its_secrets() -> None:
    assert set(SECRETS) == set(GAMES)


@pytest.mark.parametrize("game", DEFINITIONS, ids=_ids)
def test_seeded_setup_is_deterministic(game: GameDefinition[Any]) -> None:
    for players in (game.min_players, game.max_players):
        first = game.setup(_config(game, players, "same"))
        again = game.setup(_config(game, players, "same"))
        other = game.setup(_config(game, players, "other"))
        assert [e.to_payload() for e in first] == [e.to_payload() for e in again]
        assert [e.to_payload() for e in first] != [e.to_payload() for e in other]


def _check_secrets(
    game: GameDefinition[Any], state: Any, events: list[Event], seen: dict[int, set[str]]
) -> None:
    """Nobody sees a secret of another seat that it never held itself."""
    secrets = SECRETS[game.type_id]
    seats = range(game.seat_count(state))
    for seat in seats:
        seen[seat] |= secrets(state, seat)
    for viewer in [None, *seats]:
        known = seen[viewer] if viewer is not None else set()
        hidden = {s for other in seats if other != viewer for s in secrets(state, other)} - known
        if not hidden:
            continue
        shown = json.dumps(game.view(state, viewer)) + json.dumps(
            [game.redact(state, e, viewer) for e in events]
        )
        leaked = {s for s in hidden if json.dumps(s) in shown}
        assert not leaked, f"seat {viewer} sees {leaked}"


def _play(game: GameDefinition[Any], players: int, seed: str) -> None:
    rnd = random.Random(seed)
    events = game.setup(_config(game, players, seed))
    state = replay(game, events)
    seen: dict[int, set[str]] = {seat: set() for seat in range(players)}
    for move in range(MAX_MOVES):
        if game.is_over(state):
            break
        if move % SECRET_EVERY == 0:
            _check_secrets(game, state, events, seen)
        active = game.active_seats(state)
        for seat in range(players):
            if seat not in active:
                assert list(game.legal_actions(state, seat)) == []
        seat = rnd.choice(active)
        legal = list(game.legal_actions(state, seat))
        assert legal, f"active seat {seat} has no legal action"
        for action in rnd.sample(legal, min(SAMPLED, len(legal))):
            game.decide(state, seat, action)
            assert game.parse_action(action.to_body()) == action
        action = rnd.choice(legal)
        assert game.parse_action(action.to_body()) == action
        produced = game.decide(state, seat, action)
        opened = game.action_of(produced[0])
        assert opened is not None and opened[0] == seat
        assert game.decide(state, *opened) == produced  # what the verifier re-runs
        events += produced
        state = replay(game, produced, state)
    else:
        pytest.fail(f"{game.type_id} game {seed!r} did not end within {MAX_MOVES} moves")
    assert game.status(state) in {"finished", "stalled"} or game.is_over(state)
    assert game.legal_actions(state, 0) == [] and game.active_seats(state) == ()
    _check_secrets(game, state, events, seen)
    assert replay(game, [_round_trip(game, e) for e in events]) == state
    standings = game.standings(state)
    assert standings is not None and [s.seat for s in standings] == list(range(players))


@pytest.mark.parametrize("game", DEFINITIONS, ids=_ids)
@pytest.mark.parametrize("fewest", [True, False], ids=["fewest", "most"])
def test_random_seeded_games_obey_the_contract_and_end(game: GameDefinition[Any], fewest: bool) -> None:
    _play(game, game.min_players if fewest else game.max_players, f"conform-{fewest}")
