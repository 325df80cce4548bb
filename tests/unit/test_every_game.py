"""What every registered game must satisfy (the conformance suite).

Parametrised over :data:`domain.registry.GAMES`: seeded setup is
deterministic; in seeded random games every listed action is accepted by
``decide`` and survives its JSON body; each move is reproduced from its first
event (what the verifier re-runs); the events replay (through JSON) to the
same state; views and redacted events never show a seat's secrets to anybody
else; and the games end within a bound.

Resignations, timeouts and cancels (issue 14): ``resign`` is the last action
``sendable`` offers every seat still in (the only one off-turn) and ``decide``
accepts it; ``time_out`` has the same consequences; a seat out can do neither
(``already_out``), nothing goes out once the game is over; the last seat in
wins at once; a cancelled game is over with no result and no standings; and
random games in which random seats resign or time out at random points keep
every seat to act in, replay to the state each decision ended in, end, and
rank the seats in above the seats out.

A game's secrets are named per game in :data:`SECRETS` (ids that only their
holder may see until they are revealed); a new game adds its entry there.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.clocks import NO_TIME_CONTROL, Clocks, TimeControl
from domain.core import Action, Decision, Event, GameConfig, GameDefinition, decode_event, replay
from domain.errors import GameFinished, IllegalAction, NotYourTurn
from domain.forfeits import GameCancelled, Resign, SeatResigned, SeatTimedOut
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
    assert set(STUCK) == set(GAMES)


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
                assert len(game.legal_actions(state, seat)) == 0
        seat = rnd.choice(active)
        # the lazy sequence itself: a cable-car turn lists up to ~290,000 pairs, and choice and
        # sample find theirs by index (the same ones a list would give) without producing them all
        legal = game.legal_actions(state, seat)
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


# --- resignations, timeouts and cancels (issue 14) ---------------------------


def _random_cablecar_action(state: Any, seat: int, rnd: random.Random) -> Action:
    from tests.unit.cablecar.helpers import random_action

    assert seat == state.turn
    return random_action(state, rnd)


#: a cheap random legal move per game, where listing every legal action is slow
#: (any other game: a random one of its ``legal_actions``)
CHOOSERS: dict[str, Callable[[Any, int, random.Random], Action]] = {
    "cable-car": _random_cablecar_action,
}

HOW = ("resign", "time_out")


def _ttr_stuck(state: Any) -> bool:
    from domain.ttr.turns import can_act

    return all(not can_act(state, seat) for seat in state.seats_in)


def _cablecar_stuck(state: Any) -> bool:
    from domain.cablecar.turns import can_act

    return all(not can_act(state, seat) for seat in state.seats_in)


#: per game: the result reason of a game that ended because nobody could move,
#: and whether indeed no seat still in can move
STUCK: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "ttr-sf": ("stalemate", _ttr_stuck),
    "cable-car": ("stalled", _cablecar_stuck),
}


def _choose(game: GameDefinition[Any], state: Any, seat: int, rnd: random.Random) -> Action:
    chooser = CHOOSERS.get(game.type_id)
    if chooser is not None:
        return chooser(state, seat, rnd)
    return rnd.choice(list(game.legal_actions(state, seat)))


def _start(game: GameDefinition[Any], players: int, seed: str = "forfeits", control: TimeControl | None = None) -> Any:
    config = GameConfig(tuple(f"p{i}" for i in range(players)), seed, time_control=control or NO_TIME_CONTROL)
    return replay(game, game.setup(config))


def _out_event(how: str, seat: int) -> Event:
    return SeatResigned(seat) if how == "resign" else SeatTimedOut(seat)


def _go_out(game: GameDefinition[Any], state: Any, seat: int, how: str) -> tuple[list[Event], Any]:
    """``seat`` goes out: the events (as ``decide`` / ``time_out`` produce them, which
    must be what the game's ``forfeit`` rule emits), and the state they replay to,
    through JSON, which must be the state the decision ended in."""
    decision = Decision(state, game.evolve)
    game.forfeit(decision, [_out_event(how, seat)])
    if how == "resign":
        events = game.decide(state, seat, Resign())
        assert game.action_of(events[0]) == (seat, Resign())
    else:
        events = game.time_out(state, [seat])
        assert game.action_of(events[0]) is None
    assert events == decision.events and events[0] == _out_event(how, seat)
    assert replay(game, [_round_trip(game, e) for e in events], state) == decision.state
    return events, decision.state


def _seats_in(game: GameDefinition[Any], state: Any) -> set[int]:
    return {seat for seat, s in enumerate(game.seat_standings(state)) if s == "in"}


def _check_standings(game: GameDefinition[Any], state: Any) -> None:
    """Once over: winners are seats still in and every seat in ranks above every seat out."""
    standings = game.standings(state)
    if game.status(state) == "cancelled":
        assert standings is None and game.result(state) is None
        return
    assert standings is not None and [s.seat for s in standings] == list(range(game.seat_count(state)))
    seats_in = _seats_in(game, state)
    assert seats_in, "every seat is out"
    assert {s.seat for s in standings if s.winner} <= seats_in
    ranked_in = [s.rank for s in standings if s.seat in seats_in and s.rank is not None]
    ranked_out = [s.rank for s in standings if s.seat not in seats_in]
    assert all(r is not None for r in ranked_out)
    if ranked_out:
        assert max(ranked_in, default=0) < min(r for r in ranked_out if r is not None)
    result = game.result(state)
    assert result is not None and set(result["winners"]) <= seats_in
    assert [p["standing"] for p in result["players"]] == list(game.seat_standings(state))
    if len(seats_in) == 1:
        (last,) = seats_in
        assert result["reason"] == "forfeit" and result["winners"] == [last]
    reason, stuck = STUCK[game.type_id]
    if result["reason"] == reason:
        assert stuck(state), f"{reason} while a seat still in can move"


@pytest.mark.parametrize("game", DEFINITIONS, ids=_ids)
def test_resign_is_offered_to_every_seat_in_and_accepted(game: GameDefinition[Any]) -> None:
    players = game.max_players
    state = _start(game, players)
    for seat in range(players):
        sendable = game.sendable(state, seat)
        assert sendable[-1] == Resign() and Resign() not in sendable[:-1]
        if seat not in game.active_seats(state):
            assert sendable == [Resign()]
        _, after = _go_out(game, state, seat, "resign")
        assert game.seat_standings(after)[seat] == "resigned"
        assert game.sendable(after, seat) == [] and list(game.legal_actions(after, seat)) == []
        if not game.is_over(after):
            assert set(game.active_seats(after)) <= _seats_in(game, after)
            with pytest.raises(IllegalAction) as refused:
                game.decide(after, seat, Resign())
            assert refused.value.code == "already_out"
            with pytest.raises(IllegalAction) as refused:
                game.time_out(after, [seat])
            assert refused.value.code == "already_out"


@pytest.mark.parametrize("game", DEFINITIONS, ids=_ids)
def test_a_timeout_has_the_consequences_of_a_resignation(game: GameDefinition[Any]) -> None:
    players = game.max_players
    state = _start(game, players)
    for seat in range(players):
        resigned, _ = _go_out(game, state, seat, "resign")
        timed_out, after = _go_out(game, state, seat, "time_out")
        assert timed_out[1:] == resigned[1:]
        assert game.seat_standings(after)[seat] == "timed_out"
    for seat in (players, -1):
        with pytest.raises(NotYourTurn):
            game.time_out(state, [seat])
        with pytest.raises(NotYourTurn):
            game.decide(state, seat, Resign())


@pytest.mark.parametrize("game", DEFINITIONS, ids=_ids)
@pytest.mark.parametrize("how", HOW)
def test_when_one_seat_is_left_in_it_wins_at_once(game: GameDefinition[Any], how: str) -> None:
    players = game.max_players
    state = _start(game, players)
    last = 1
    for seat in [s for s in range(players) if s != last]:
        assert not game.is_over(state)
        _, state = _go_out(game, state, seat, how)
    assert game.is_over(state) and game.status(state) == "finished" and game.active_seats(state) == ()
    result = game.result(state)
    assert result is not None and result["winners"] == [last] and result["reason"] == "forfeit"
    standings = game.standings(state)
    assert standings is not None
    assert [(s.rank, s.winner) for s in standings if s.seat == last] == [(1, True)]
    assert all(not s.winner and s.rank is not None and s.rank > 1 for s in standings if s.seat != last)
    _check_standings(game, state)
    for attempt in (lambda: game.decide(state, last, Resign()), lambda: game.time_out(state, [last]),
                    lambda: game.cancel(state)):
        with pytest.raises(GameFinished):
            attempt()
    assert all(game.sendable(state, seat) == [] for seat in range(players))


@pytest.mark.parametrize("game", DEFINITIONS, ids=_ids)
@pytest.mark.parametrize("after_a_forfeit", [False, True], ids=["fresh", "after-forfeit"])
def test_a_cancelled_game_has_no_result(game: GameDefinition[Any], after_a_forfeit: bool) -> None:
    players = game.min_players + 1
    state = _start(game, players)
    if after_a_forfeit:
        _, state = _go_out(game, state, 0, "time_out")
    standing = game.seat_standings(state)
    events = game.cancel(state)
    assert events == [GameCancelled()] and game.action_of(events[0]) is None
    state = replay(game, [_round_trip(game, e) for e in events], state)
    assert game.status(state) == "cancelled" and game.is_over(state)
    assert game.result(state) is None and game.standings(state) is None
    assert game.active_seats(state) == () and game.seat_standings(state) == standing
    assert game.moment(state, 1.0).over and game.moment(state, 1.0).active == ()
    for seat in range(players):
        assert game.sendable(state, seat) == [] and list(game.legal_actions(state, seat)) == []
    for viewer in [None, *range(players)]:
        assert game.view(state, viewer)["status"] == "cancelled"
    for attempt in (lambda: game.cancel(state), lambda: game.decide(state, 1, Resign()),
                    lambda: game.time_out(state, [1])):
        with pytest.raises(GameFinished):
            attempt()


def _play_with_forfeits(game: GameDefinition[Any], players: int, seed: int, rate: float) -> None:
    """A random game in which, before each move, a random seat still in resigns or
    times out with probability ``rate``; checks the invariants after every step."""
    rnd = random.Random(seed)
    control = TimeControl("per_turn", seconds=60)
    events = game.setup(GameConfig(tuple(f"p{i}" for i in range(players)), f"forfeit-{seed}", time_control=control))
    state = replay(game, events)
    now = 0.0
    clocks = Clocks.start(control, players, game.moment(state, now))
    for _ in range(MAX_MOVES):
        if game.is_over(state):
            break
        seats_in = _seats_in(game, state)
        active = game.active_seats(state)
        assert active and set(active) <= seats_in, "a seat out (or nobody) is to act"
        for seat in range(players):
            if seat not in seats_in:
                assert game.sendable(state, seat) == []
            elif seat not in active:
                assert game.sendable(state, seat) == [Resign()]
        assert {seat for seat, _ in clocks.deadlines()} == set(active)
        if rnd.random() < rate:
            seat = rnd.choice(sorted(seats_in))
            produced, after = _go_out(game, state, seat, rnd.choice(HOW))
        else:
            seat = rnd.choice(active)
            produced = game.decide(state, seat, _choose(game, state, seat, rnd))
            opened = game.action_of(produced[0])
            assert opened is not None and game.decide(state, *opened) == produced
            after = replay(game, produced, state)
        events += produced
        state = after
        now += rnd.choice((0.5, 3.0))
        clocks = clocks.advance(game.moment(state, now))
    else:
        pytest.fail(f"{game.type_id} game {seed} did not end within {MAX_MOVES} moves")
    assert clocks.deadlines() == () and game.active_seats(state) == ()
    assert replay(game, [_round_trip(game, e) for e in events]) == state
    _check_standings(game, state)


FORFEIT_GAMES = settings(max_examples=8, deadline=None, derandomize=True,
                         suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", DEFINITIONS, ids=_ids)
@FORFEIT_GAMES
@given(data=st.data())
def test_random_games_with_random_forfeits_stay_consistent_and_end(game: GameDefinition[Any], data: Any) -> None:
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    rate = data.draw(st.sampled_from((0.01, 0.03, 0.1)), label="rate")
    _play_with_forfeits(game, players, seed, rate)
