"""Upcasting: events stored at an old schema version are read at the current one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.core import GameConfig, Upcast, replay
from domain.ttr import GAME
from domain.ttr.events import RouteClaimed
from domain.ttr.upcasters import route_claimed_v1_to_v2
from events import Stores
from events.encoding.codec import DecodeError, current_payload, decode, encode
from events.encoding.upcasting import UPCASTERS, UpcasterRegistry, UpcastError
from events.records import NewEvent, StoredEvent
from tests.contract.backends import Contract, PostgresBackend, SqliteBackend


def v1_of(new: NewEvent) -> NewEvent:
    """What the v1 code wrote for a route_claimed event: cards as a flat list (and no
    ``ends_turn``: a turn's end was a ``turn_ended`` of its own, as under the rules played here)."""
    payload = dict(new.payload)
    assert payload.pop("ends_turn") is False
    cards = [colour for colour, count in payload["cards"].items() for _ in range(count)]
    return NewEvent(new.type, {**payload, "cards": cards}, schema_version=1, seat=new.seat)


def play_until_two_claims(seed: str) -> tuple[list[NewEvent], list[list[NewEvent]], Any]:
    """A real ttr-sf game under the first rules (when route_claimed was at
    v1): its opening, the events of each move (claims preferred) until two
    routes are claimed, and the final state."""
    opening = GAME.setup(GameConfig(players=("Ada", "Bo"), seed=seed, rules_version="ttr-sf/1"))
    state = replay(GAME, opening)
    moves: list[list[NewEvent]] = []
    claims = 0
    for _ in range(300):
        seat = GAME.active_seats(state)[0]
        actions = GAME.legal_actions(state, seat)
        claim_actions = [a for a in actions if a.TYPE == "claim_route"]
        action = claim_actions[0] if claim_actions else actions[0]
        produced = GAME.decide(state, seat, action)
        for event in produced:
            state = GAME.evolve(state, event)
        moves.append([encode(GAME, e, seat) for e in produced])
        claims += bool(claim_actions)
        if claims == 2:
            return [encode(GAME, e, None) for e in opening], moves, state
    raise AssertionError("no two claims within 300 moves")


def test_the_ttr_upcaster_counts_cards() -> None:
    v1 = {"seat": 1, "route": "a--b", "cards": ["red", "ferry", "red"], "souvenir": None, "points": 2}
    assert route_claimed_v1_to_v2(v1) == {**v1, "cards": {"ferry": 1, "red": 2}}
    assert route_claimed_v1_to_v2({**v1, "cards": []})["cards"] == {}
    assert v1["cards"] == ["red", "ferry", "red"]  # the input is not modified
    for bad in ({"red": 2}, ["red", 3], "red"):
        with pytest.raises(ValueError):
            route_claimed_v1_to_v2({**v1, "cards": bad})


def stored(type_: str, version: int, payload: dict[str, Any], seq: int = 7) -> StoredEvent:
    return StoredEvent(
        "g", seq, seq, type_, version, payload, "2024-01-01T00:00:00.000000Z", 0, None, "0", "0"
    )


def test_decode_refuses_what_it_cannot_read() -> None:
    v2 = {"seat": 0, "route": "a--b", "cards": {"red": 1}, "souvenir": None, "points": 1}
    assert decode(GAME, stored("route_claimed", 2, v2)) == RouteClaimed(0, "a--b", {"red": 1}, None, 1)
    with pytest.raises(UpcastError, match="newer"):
        decode(GAME, stored("route_claimed", 4, v2))
    with pytest.raises(UpcastError, match="cannot be upcast"):
        decode(GAME, stored("route_claimed", 1, {**v2, "cards": {"red": 1}}))
    with pytest.raises(UpcastError, match="cannot be upcast"):
        decode(GAME, stored("route_claimed", 1, {"seat": 0}))
    with pytest.raises(DecodeError, match="no event type"):
        decode(GAME, stored("no_such_event", 1, {}))
    with pytest.raises(UpcastError, match="no upcaster"):
        current_payload(GAME, stored("route_claimed", 1, v2), registry=UpcasterRegistry())


def test_registry_applies_steps_in_order_and_refuses_duplicates() -> None:
    def one(p: Any) -> dict[str, Any]:
        return {**p, "trail": [*p["trail"], 1]}

    def two(p: Any) -> dict[str, Any]:
        return {**p, "trail": [*p["trail"], 2]}

    registry = UpcasterRegistry([("g", Upcast("e", 2, two)), ("g", Upcast("e", 1, one))])
    assert registry.upcast("g", "e", 1, {"trail": []}, 3) == {"trail": [1, 2]}
    assert registry.upcast("g", "e", 2, {"trail": []}, 3) == {"trail": [2]}
    assert registry.upcast("g", "e", 3, {"trail": []}, 3) == {"trail": []}
    with pytest.raises(UpcastError):
        registry.upcast("g", "e", 1, {"trail": []}, 4)
    with pytest.raises(ValueError):
        UpcasterRegistry([("g", Upcast("e", 1, one)), ("g", Upcast("e", 1, two))])
    with pytest.raises(ValueError):
        UpcasterRegistry([("g", Upcast("e", 0, one))])
    assert registry.steps() == [("g", "e", 1), ("g", "e", 2)]
    assert ("ttr-sf", "route_claimed", 1) in UPCASTERS.steps()


def test_encode_takes_type_version_and_payload_from_the_event() -> None:
    event = RouteClaimed(seat=1, route="a--b", cards={"red": 2}, souvenir=None, points=2)
    new = encode(GAME, event, 1)
    assert (new.type, new.schema_version, new.seat) == ("route_claimed", 3, 1)
    assert new.payload == event.to_payload()

    class Foreign(RouteClaimed):
        pass

    with pytest.raises(ValueError):
        encode(GAME, Foreign(1, "a--b", {}, None, 0), 1)


class UpcastingContract(Contract):
    """Rows stored at an old schema version, on one backend per subclass."""

    def test_route_claimed_rows_stored_at_v1_are_decoded_at_the_current_version(
        self, store: Stores, new_id: Callable[[], str]
    ) -> None:
        opening, moves, final_state = play_until_two_claims("upcast-contract")
        gid = new_id()
        store.events.create_game(gid, GAME.type_id, {}, opening, "setup")
        version = len(opening)
        for move in moves:
            written = [v1_of(e) if e.type == RouteClaimed.TYPE else e for e in move]
            version = store.events.append(gid, version, written).events[-1].seq

        stored = store.events.load(gid)
        claims = [e for e in stored if e.type == RouteClaimed.TYPE]
        assert len(claims) == 2
        for row in claims:  # the rows really hold the v1 shape
            assert row.schema_version == 1 and isinstance(row.payload["cards"], list)
        assert store.events.verify_chain(gid).ok  # the chain covers what was written, v1 included

        decoded = [decode(GAME, e) for e in stored]
        for event in decoded:
            if isinstance(event, RouteClaimed):
                assert isinstance(event.cards, dict) and all(isinstance(n, int) for n in event.cards.values())
        assert replay(GAME, decoded) == final_state


class TestUpcastingSqlite(UpcastingContract):
    backend_type = SqliteBackend


class TestUpcastingPostgres(UpcastingContract):
    backend_type = PostgresBackend
