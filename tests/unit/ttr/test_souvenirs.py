"""Souvenir tokens taken when claiming a route: automatic, chosen, none,
never two of a symbol; all 21 tokens stay accounted for."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute
from domain.ttr.events import RouteClaimed
from domain.ttr.state import TtrState

from .helpers import act, crafted

# the-embarcadero--alcatraz: gray, 4 spaces, 1 ferry; both ends hold stacks
# in the crafted layout (alcatraz: bridge, the-embarcadero: fortune-cookie)
BOTH_ENDS = "the-embarcadero--alcatraz"
BOTH_HAND = ("blue", "blue", "blue", "ferry")
# golden-gate-park--sunset: black, 1 space; only sunset holds a stack (key)
ONE_END = "golden-gate-park--sunset"


def both(souvenir: str | None) -> ClaimRoute:
    return ClaimRoute.paying(BOTH_ENDS, {"blue": 3, "ferry": 1}, souvenir)


def one(souvenir: str | None = None) -> ClaimRoute:
    return ClaimRoute.paying(ONE_END, {"black": 1}, souvenir)


def state_with(souvenirs: tuple[str, ...] = (), **kw: object) -> TtrState:
    return crafted(hands=[BOTH_HAND + ("black",), ()], souvenirs=[souvenirs, ()], **kw)  # type: ignore[arg-type]


def tokens(state: TtrState) -> int:
    held = sum(len(p.souvenirs) for p in state.players)
    return (
        held
        + sum(s.count for s in state.stacks)
        + sum(state.box)
        + len(state.set_aside) * state.set_aside_size
    )


def test_a_single_possible_souvenir_is_taken_automatically() -> None:
    state = state_with()
    events, after = act(state, 0, one())
    assert isinstance(events[0], RouteClaimed) and events[0].souvenir == "key"
    assert after.players[0].souvenirs == ("key",)
    assert after.stack_at("sunset").count == 1  # type: ignore[union-attr]
    assert tokens(state) == tokens(after) == 21
    assert GAME.view(after, None)["players"][0]["souvenirs"] == ["key"]


def test_naming_the_single_possible_souvenir_is_accepted_and_a_wrong_one_refused() -> None:
    state = state_with()
    assert GAME.decide(state, 0, one("key")) == GAME.decide(state, 0, one())
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, 0, one("bridge"))
    assert info.value.code == "souvenir_not_available"


def test_a_choice_between_both_ends_must_be_named() -> None:
    state = state_with()
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, 0, both(None))
    assert info.value.code == "souvenir_choice_required"
    assert "bridge" in info.value.detail and "fortune-cookie" in info.value.detail
    events, after = act(state, 0, both("fortune-cookie"))
    assert isinstance(events[0], RouteClaimed) and events[0].souvenir == "fortune-cookie"
    assert after.stack_at("the-embarcadero").count == 1  # type: ignore[union-attr]
    assert after.stack_at("alcatraz").count == 2  # type: ignore[union-attr]
    listed = [a for a in GAME.legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == BOTH_ENDS]
    assert {a.souvenir for a in listed} == {"bridge", "fortune-cookie"}


def test_never_two_tokens_of_the_same_symbol() -> None:
    state = state_with(("key",))
    events, after = act(state, 0, one())
    assert isinstance(events[0], RouteClaimed) and events[0].souvenir is None
    assert after.players[0].souvenirs == ("key",) and after.stack_at("sunset").count == 2  # type: ignore[union-attr]
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, 0, one("key"))
    assert info.value.code == "souvenir_not_available" and "never holds two" in info.value.detail


def test_a_held_symbol_leaves_the_other_end_as_the_only_choice() -> None:
    state = state_with(("bridge",))
    events, _ = act(state, 0, both(None))
    assert isinstance(events[0], RouteClaimed) and events[0].souvenir == "fortune-cookie"


def test_an_emptied_stack_offers_nothing() -> None:
    stacks = {"sunset": ("key", 0), "alcatraz": ("bridge", 1)}
    state = state_with(stacks=stacks)
    events, _ = act(state, 0, one())
    assert isinstance(events[0], RouteClaimed) and events[0].souvenir is None
    events, after = act(state, 0, both(None))
    assert isinstance(events[0], RouteClaimed) and events[0].souvenir == "bridge"
    assert after.stack_at("alcatraz").count == 0  # type: ignore[union-attr]


def test_a_route_without_stacks_offers_nothing() -> None:
    state = crafted(hands=[("black",), ()])
    events, _ = act(state, 0, ClaimRoute.paying("marina--fort-mason", {"black": 1}))
    assert isinstance(events[0], RouteClaimed) and events[0].souvenir is None
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, 0, ClaimRoute.paying("marina--fort-mason", {"black": 1}, "key"))
    assert info.value.code == "souvenir_not_available"
