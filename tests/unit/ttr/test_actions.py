"""Parsing action bodies and recovering actions from events."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import MalformedAction
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets, PlaceSouvenirStack
from domain.ttr.events import (
    CardDrawn,
    FaceUpRefilled,
    RouteClaimed,
    SouvenirStackPlaced,
    TicketsDrawn,
    TicketsKept,
    TurnEnded,
)

VALID: list[tuple[dict[str, Any], object]] = [
    (
        {"type": "place_souvenir_stack", "symbol": "key", "location": "lombard-street"},
        PlaceSouvenirStack("key", "lombard-street"),
    ),
    ({"type": "keep_tickets", "tickets": ["T03"]}, KeepTickets(("T03",))),
    ({"type": "keep_tickets", "tickets": ["T03", "T04"]}, KeepTickets(("T03", "T04"))),
    ({"type": "draw_card", "source": "deck"}, DrawCard("deck")),
    ({"type": "draw_card", "source": "face_up", "slot": 0}, DrawCard("face_up", 0)),
    (
        {"type": "claim_route", "route": "marina--fort-mason", "cards": {"black": 1}},
        ClaimRoute("marina--fort-mason", (("black", 1),)),
    ),
    (
        {
            "type": "claim_route",
            "route": "pier-39--alcatraz",
            "cards": {"ferry": 1, "red": 1},
            "souvenir": "key",
        },
        ClaimRoute("pier-39--alcatraz", (("red", 1), ("ferry", 1)), "key"),
    ),
    ({"type": "draw_tickets"}, DrawTickets()),
]


@pytest.mark.parametrize(("body", "action"), VALID)
def test_valid_bodies_parse_and_round_trip(body: dict[str, Any], action: object) -> None:
    parsed = GAME.parse_action(body)
    assert parsed == action
    assert GAME.parse_action(parsed.to_body()) == parsed
    assert parsed.to_body() == body


def test_expected_version_is_tolerated_and_zero_counts_dropped() -> None:
    body = {"type": "claim_route", "route": "r", "cards": {"red": 2, "ferry": 0}, "expected_version": 7}
    assert GAME.parse_action(body) == ClaimRoute("r", (("red", 2),))


def test_card_order_in_a_payment_does_not_matter() -> None:
    a = GAME.parse_action({"type": "claim_route", "route": "r", "cards": {"ferry": 1, "red": 2}})
    b = GAME.parse_action({"type": "claim_route", "route": "r", "cards": {"red": 2, "ferry": 1}})
    assert a == b and hash(a) == hash(b)


MALFORMED: list[tuple[Any, str]] = [
    ([], "JSON object"),
    ({}, "'type'"),
    ({"type": 3}, "'type'"),
    ({"type": "fly"}, "unknown action type 'fly'"),
    ({"type": "draw_card"}, "missing field 'source'"),
    ({"type": "draw_card", "source": "pile"}, "'source' must be one of 'deck', 'face_up', not 'pile'"),
    ({"type": "draw_card", "source": "face_up"}, "missing field 'slot'"),
    ({"type": "draw_card", "source": "face_up", "slot": "1"}, "'slot' must be"),
    ({"type": "draw_card", "source": "face_up", "slot": True}, "'slot' must be"),
    ({"type": "draw_card", "source": "deck", "slot": 1}, "only allowed with source 'face_up'"),
    ({"type": "keep_tickets"}, "missing field 'tickets'"),
    ({"type": "keep_tickets", "tickets": "T01"}, "'tickets' must be"),
    ({"type": "keep_tickets", "tickets": [1]}, "'tickets'[0] must be a string"),
    ({"type": "claim_route", "cards": {"red": 1}}, "missing field 'route'"),
    ({"type": "claim_route", "route": "r"}, "missing field 'cards'"),
    ({"type": "claim_route", "route": "r", "cards": ["red"]}, "'cards' must be"),
    ({"type": "claim_route", "route": "r", "cards": {"pink": 1}}, "key must be one of 'blue'"),
    ({"type": "claim_route", "route": "r", "cards": {"red": -1}}, "must be an integer 0-44, not -1"),
    ({"type": "claim_route", "route": "r", "cards": {"red": 1.5}}, "'cards'['red'] must be an integer 0-44"),
    ({"type": "claim_route", "route": "r", "cards": {"red": 1}, "souvenir": 4}, "'souvenir' must be"),
    ({"type": "place_souvenir_stack", "symbol": "key"}, "missing field 'location'"),
    ({"type": "draw_tickets", "count": 2}, "unknown field(s) 'count'"),
]


@pytest.mark.parametrize(("body", "detail"), MALFORMED)
def test_malformed_bodies_are_refused_with_a_clear_detail(body: Any, detail: str) -> None:
    with pytest.raises(MalformedAction) as info:
        GAME.parse_action(body)
    assert detail in info.value.detail
    assert info.value.kind == "invalid_request"


def test_action_of_recovers_the_move_opening_events() -> None:
    assert GAME.action_of(SouvenirStackPlaced(seat=1, symbol="key", location="marina", count=2)) == (
        1,
        PlaceSouvenirStack("key", "marina"),
    )
    assert GAME.action_of(
        TicketsKept(seat=0, kept=("T01",), returned=("T02",), kept_count=1, returned_count=1)
    ) == (0, KeepTickets(("T01",)))
    assert GAME.action_of(CardDrawn(seat=2, source="face_up", slot=3, card="red")) == (
        2,
        DrawCard("face_up", 3),
    )
    assert GAME.action_of(CardDrawn(seat=2, source="deck", slot=None, card="red")) == (2, DrawCard("deck"))
    claimed = RouteClaimed(seat=1, route="r", cards={"ferry": 1, "red": 1}, souvenir="key", points=2)
    assert GAME.action_of(claimed) == (1, ClaimRoute("r", (("red", 1), ("ferry", 1)), "key"))
    assert GAME.action_of(TicketsDrawn(seat=0, tickets=("T01", "T02"), count=2)) == (0, DrawTickets())
    assert GAME.action_of(FaceUpRefilled(slot=0, card="red")) is None
    assert GAME.action_of(TurnEnded(seat=0)) is None
