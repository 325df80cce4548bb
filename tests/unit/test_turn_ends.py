"""A turn's end carried by the move's last event (``ttr-sf/3``, ``cable-car/3``).

The common moves write one event fewer than under ``/2``; random games played
move for move under both versions reach the same states (but the version);
each ``/3`` decision is the ``/2`` one with every carried end folded into the
event before it; old payloads of the carriers are lifted to ``ends_turn: false``.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cablecar import GAME as CABLE_CAR
from domain.cablecar.events import TURN_END_CARRIERS as CABLE_CAR_CARRIERS
from domain.core import Decision, Event, GameConfig, GameDefinition, decode_event, replay
from domain.forfeits import Resign
from domain.ttr import GAME as TTR
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets
from domain.ttr.events import TURN_END_CARRIERS as TTR_CARRIERS
from domain.ttr.events import CardDrawn, TurnPassed
from domain.turnends import ENDS_TURN, carries_turn_end, without_turn_end
from events.encoding.upcasting import UPCASTERS, UpcastError
from tests.unit.cablecar import helpers as cc
from tests.unit.ttr import helpers as ttr

#: each game with the last rules version that records turn ends as events of their own, and the
#: first that records them in the move's last event, with otherwise the same rules (``cable-car/4``
#: changed other rules too)
GAMES: dict[str, tuple[GameDefinition[Any], str, str]] = {
    TTR.type_id: (TTR, "ttr-sf/2", "ttr-sf/3"),
    CABLE_CAR.type_id: (CABLE_CAR, "cable-car/2", "cable-car/3"),
}
CARRIERS = {TTR.type_id: TTR_CARRIERS, CABLE_CAR.type_id: CABLE_CAR_CARRIERS}


# --- the mechanism ---------------------------------------------------------------


def test_amending_the_last_event_reapplies_it_to_the_state_before_it() -> None:
    def evolve(state: tuple[Event, ...] | None, event: Event) -> tuple[Event, ...]:
        return (*(state or ()), event)

    first, second, amended = (TurnPassed(seat=s) for s in (0, 1, 2))
    decision: Decision[tuple[Event, ...]] = Decision((), evolve)
    with pytest.raises(ValueError, match="nothing was emitted"):
        decision.amend_last(first)
    decision.emit(first, second)
    decision.amend_last(amended)
    assert decision.events == [first, amended] and decision.state == (first, amended)


# --- fewer events for the common moves ------------------------------------------


def test_ttr_moves_end_the_turn_in_their_last_event() -> None:
    state = ttr.crafted(hands=[("black", "red"), ()], ticket_deck=("T05", "T06", "T07"))
    claim = ClaimRoute.paying("marina--fort-mason", {"black": 1})
    events, after = ttr.act(state, 0, claim)
    assert ttr.types(events) == ["route_claimed+turn_ended"] and after.turn == 1
    old, old_after = ttr.act(dataclasses.replace(state, rules=2), 0, claim)
    assert ttr.types(old) == ["route_claimed", "turn_ended"]
    assert dataclasses.replace(old_after, rules=after.rules) == after
    _, drawn = ttr.act(state, 0, DrawCard("deck"))
    events, _ = ttr.act(drawn, 0, DrawCard("deck"))
    assert ttr.types(events) == ["card_drawn+turn_ended"]
    _, choosing = ttr.act(state, 0, DrawTickets())
    events, _ = ttr.act(choosing, 0, KeepTickets(("T05",)))
    assert ttr.types(events) == ["tickets_kept+turn_ended"]


def test_cable_car_moves_end_the_turn_in_their_last_event() -> None:
    state = cc.state_of(hands=(("straight",) * 5, ("straight",) * 5), pile=("curve",) * 20)
    state = dataclasses.replace(state, rules=3)
    pair = cc.lay(cc.place("straight", 6, 6, 0), cc.place("straight", 8, 8, 0))
    events, after = cc.act(state, 0, pair)
    assert cc.types(events) == ["tiles_laid", "tiles_drawn+turn_ended"] and after.turn == 1
    old, old_after = cc.act(dataclasses.replace(state, rules=2), 0, pair)
    assert cc.types(old) == ["tiles_laid", "tiles_drawn", "turn_ended"]
    assert dataclasses.replace(old_after, rules=after.rules) == after
    # a roll that does not arrive is one die_rolled (tests/unit/cablecar/test_ride.py)


# --- the same games under both versions ------------------------------------------


def _pick(game: GameDefinition[Any], state: Any, seat: int, rnd: random.Random) -> Any:
    if game is CABLE_CAR:
        return cc.random_action(state, rnd)
    return rnd.choice(list(game.legal_actions(state, seat)))


def _unfolds_to(game: GameDefinition[Any], new: list[Event], old: list[Event]) -> bool:
    """Whether ``old`` is ``new`` with each carried turn end written as a ``turn_ended`` of its own."""
    turn_ended = game.event_types["turn_ended"]
    i = 0
    for event in new:
        if carries_turn_end(event):
            if old[i : i + 1] != [dataclasses.replace(event, **{ENDS_TURN: False})] or not isinstance(
                old[i + 1] if i + 1 < len(old) else None, turn_ended
            ):
                return False
            i += 2
        elif old[i : i + 1] != [event]:
            return False
        else:
            i += 1
    return i == len(old)


def _through_json(game: GameDefinition[Any], events: list[Event]) -> list[Event]:
    return [decode_event(game, e.TYPE, e.to_payload()) for e in events]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    type_id=st.sampled_from(sorted(GAMES)),
    players=st.integers(min_value=2, max_value=4),
    seed=st.text(alphabet="abcdef0123456789", min_size=1, max_size=8),
    choices=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_a_game_played_under_both_versions_reaches_the_same_states(
    type_id: str, players: int, seed: str, choices: int
) -> None:
    game, old_version, new_version = GAMES[type_id]
    config = GameConfig(tuple(f"p{i}" for i in range(players)), seed)
    new_events = game.setup(dataclasses.replace(config, rules_version=new_version))
    old_events = game.setup(dataclasses.replace(config, rules_version=old_version))
    assert _unfolds_to(game, new_events[1:], old_events[1:])
    new, old = replay(game, new_events), replay(game, old_events)
    rnd = random.Random(choices)
    written = {"old": len(old_events), "new": len(new_events)}
    for _ in range(250 if game is TTR else 60):
        if game.is_over(new):
            break
        seat = game.active_seats(new)[0]
        roll = rnd.random()
        if roll < 0.005:  # forfeits end turns their own way: the same under both versions
            made_new, made_old = game.time_out(new, [seat]), game.time_out(old, [seat])
        else:
            action = Resign() if roll < 0.01 else _pick(game, new, seat, rnd)
            made_new, made_old = game.decide(new, seat, action), game.decide(old, seat, action)
        assert _unfolds_to(game, made_new, made_old)
        new = replay(game, _through_json(game, made_new), new)
        old = replay(game, made_old, old)
        assert dataclasses.replace(new, rules=old.rules) == old
        written["new"] += len(made_new)
        written["old"] += len(made_old)
    assert written["new"] <= written["old"]


# --- upcasting -------------------------------------------------------------------


@pytest.mark.parametrize("type_id", sorted(GAMES))
def test_exactly_the_carriers_have_the_field_and_an_upcaster_to_it(type_id: str) -> None:
    game, *_ = GAMES[type_id]
    with_field = {cls for cls in game.events if "ends_turn" in {f.name for f in dataclasses.fields(cls)}}
    assert with_field == set(CARRIERS[type_id])
    steps = UPCASTERS.steps()
    for cls in CARRIERS[type_id]:
        assert (type_id, cls.TYPE, cls.SCHEMA_VERSION - 1) in steps


def test_an_old_carrier_payload_is_read_as_not_ending_the_turn() -> None:
    v1 = {"seat": 1, "source": "deck", "slot": None, "card": "red"}
    lifted = UPCASTERS.upcast("ttr-sf", "card_drawn", 1, v1, 2)
    assert lifted == {**v1, "ends_turn": False} and "ends_turn" not in v1
    assert decode_event(TTR, "card_drawn", lifted) == CardDrawn(1, "deck", None, "red")
    route = {"seat": 0, "route": "a--b", "cards": ["red", "red"], "souvenir": None, "points": 2}
    assert UPCASTERS.upcast("ttr-sf", "route_claimed", 1, route, 3) == {
        **route, "cards": {"red": 2}, "ends_turn": False}
    rolled = {"seat": 0, "face": "H", "rng_counter": 7, "start": 0, "end": 6}
    assert UPCASTERS.upcast("cable-car", "die_rolled", 1, rolled, 2) == {**rolled, "ends_turn": False}


def test_a_payload_that_cannot_be_old_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="already present"):
        without_turn_end({"seat": 0, "ends_turn": True})
    with pytest.raises(ValueError, match="must be an object"):
        without_turn_end(["seat", 0])  # type: ignore[arg-type]
    with pytest.raises(UpcastError, match="tiles_drawn: payload at schema version 1 cannot be upcast"):
        UPCASTERS.upcast("cable-car", "tiles_drawn", 1, {"seat": 0, "tiles": [], "ends_turn": False}, 2)
    with pytest.raises(UpcastError, match="newer than this code's"):
        UPCASTERS.upcast("cable-car", "tiles_drawn", 3, {"seat": 0, "tiles": []}, 2)
