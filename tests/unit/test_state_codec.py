"""The cache's state codec (``service/adapters/statecodec.py``): every registered game's
states survive it unchanged, and what it decodes is data of those games only.

Parametrised over :data:`domain.registry.GAMES`, like the conformance suite:
a new game's states are checked without edits here.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from domain.clocks import Clocks, TimeControl
from domain.core import Event, GameConfig, GameDefinition, replay
from domain.registry import GAMES
from service.adapters.statecodec import Snapshot, StateCodec, Undecodable, UnsupportedState, state_class

DEFINITIONS = sorted(GAMES.values(), key=lambda g: g.type_id)
CODEC = StateCodec(DEFINITIONS)
#: states checked per game: every this many moves, and the last
EVERY = 7


#: a chess clock, so that the snapshots' clocks hold banks, running turns and increments
CONTROL = TimeControl("clock", initial_seconds=600, increment_seconds=5)


@functools.cache
def _states(game: GameDefinition[Any], players: int, seed: str) -> tuple[Snapshot, ...]:
    """Snapshots (states and their clocks) along a seeded random game, from
    the opening to the end (played once per test run)."""
    rnd = random.Random(seed)
    events: list[Event] = game.setup(GameConfig(players=tuple(f"p{i}" for i in range(players)), seed=seed))
    state = replay(game, events)
    clocks = Clocks.start(CONTROL, game.seat_count(state), game.moment(state, 1_000.0))
    seen = [Snapshot(state, clocks)]
    for move in range(3000):
        if game.is_over(state):
            break
        seat = rnd.choice(game.active_seats(state))
        legal = game.legal_actions(state, seat)  # chosen from by index: no list of every cable-car pair
        state = replay(game, game.decide(state, seat, rnd.choice(legal)), state)
        clocks = clocks.advance(game.moment(state, 1_000.0 + 1.25 * move))
        if move % EVERY == 0:
            seen.append(Snapshot(state, clocks))
    return (*seen, Snapshot(state, clocks))


@pytest.mark.parametrize("game", DEFINITIONS, ids=lambda g: g.type_id)
@pytest.mark.parametrize("fewest", [True, False], ids=["fewest", "most"])
def test_every_state_of_a_random_game_survives_the_codec(game: GameDefinition[Any], fewest: bool) -> None:
    players = game.min_players if fewest else game.max_players
    for state in _states(game, players, "codec"):
        data = CODEC.encode(state)
        back = CODEC.decode(data)
        assert type(back.state) is type(state.state) and back == state
        assert CODEC.encode(back) == data
        assert json.loads(data)[0] == game.type_id


def _entry(game: GameDefinition[Any]) -> list[Any]:
    states = _states(game, game.min_players, "codec")
    state = states[len(states) // 2]  # mid-game: tiles on the board, cards in hands
    return list(json.loads(CODEC.encode(state)))


@pytest.mark.parametrize("game", DEFINITIONS, ids=lambda g: g.type_id)
def test_anything_but_an_encoded_state_is_undecodable(game: GameDefinition[Any]) -> None:
    type_id, fields, clocks = _entry(game)
    forged: list[Any] = [
        b"\x80\x04\x95 not json",  # a pickle
        b"[",
        b"[" * 100_000 + b"]" * 100_000,  # deeper than the parser goes
        json.dumps({"type": type_id, "state": fields}).encode(),
        json.dumps(["os.system", fields, clocks]).encode(),  # no class is looked up by a name in the data
        json.dumps([type_id, fields]).encode(),  # an entry from before clocks
        json.dumps([type_id, fields[:-1], clocks]).encode(),  # a field short
        json.dumps([type_id, [*fields, 0], clocks]).encode(),  # a field too many
        json.dumps([type_id, fields, clocks[:-1]]).encode(),  # clocks a field short
        json.dumps([type_id, fields, [clocks[0], "x", clocks[2]]]).encode(),
        json.dumps([type_id, [{"py/object": "os.system"}, *fields[1:]], clocks]).encode(),
        json.dumps([type_id, [fields[0], *[[] if isinstance(f, str) else "x" for f in fields[1:]]], clocks]).encode(),
    ]
    for data in forged:
        with pytest.raises(Undecodable):
            CODEC.decode(data)


def test_a_value_of_the_wrong_type_anywhere_is_undecodable() -> None:
    """Each leaf of an encoded state, replaced by a value of another JSON type, is refused."""
    game = GAMES["cable-car"]
    type_id, fields, clocks = _entry(game)

    def leaves(value: Any, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
        if isinstance(value, list):
            return [p for i, v in enumerate(value) for p in leaves(v, (*path, i))]
        return [path]

    def replaced(value: Any, path: tuple[int, ...], by: Any) -> Any:
        if not path:
            return by
        copy = list(value)
        copy[path[0]] = replaced(copy[path[0]], path[1:], by)
        return copy

    paths = leaves(fields)
    for path in random.Random(1).sample(paths, 60):
        leaf = replaced(fields, path, None)
        for by in ([], {"a": 1}, 1.5, "x" if leaf is None else None):
            # ``None`` and strings are legitimate in some places: only a change of kind must fail
            original: Any = fields
            for i in path:
                original = original[i]
            if type(by) is type(original):
                continue
            data = json.dumps([type_id, replaced(fields, path, by), clocks]).encode()
            try:
                CODEC.decode(data)
            except Undecodable:
                continue
            # accepted only where the annotation allows both kinds (e.g. an empty or laid square)
            assert by is None or isinstance(by, str), f"{by!r} accepted at {path}"


@dataclass(frozen=True)
class _Opaque:
    anything: Any


@dataclass(frozen=True)
class _Unregistered:
    pass


@dataclass
class _Unfrozen:
    count: int


def test_states_the_codec_cannot_check_are_refused_when_it_is_built() -> None:
    def evolve_opaque(state: _Opaque | None, event: Event) -> _Opaque:
        raise AssertionError

    def evolve_unfrozen(state: _Unfrozen | None, event: Event) -> _Unfrozen:
        raise AssertionError

    for evolve in (evolve_opaque, evolve_unfrozen):
        with pytest.raises(UnsupportedState):
            StateCodec([dataclasses.replace(GAMES["ttr-sf"], type_id="fake", evolve=evolve)])
    with pytest.raises(UnsupportedState):
        CODEC.encode(_Unregistered())  # type: ignore[arg-type]
    a_state = _states(GAMES["ttr-sf"], 2, "codec")[0]
    with pytest.raises(UnsupportedState):
        CODEC.encode(Snapshot(_Unregistered(), a_state.clocks))
    with pytest.raises(UnsupportedState):
        CODEC.encode(a_state.state)  # a bare state (no clocks) is not what the cache keeps


@pytest.mark.parametrize("game", DEFINITIONS, ids=lambda g: g.type_id)
def test_the_state_class_is_what_evolve_returns(game: GameDefinition[Any]) -> None:
    state = _states(game, game.min_players, "codec")[-1].state
    assert state_class(game) is type(state)
