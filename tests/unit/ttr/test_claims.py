"""Claiming routes: payments, gray and ferry routes, double routes, cars,
route points and one route per turn."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction, NotYourTurn
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute
from domain.ttr.board import load_board
from domain.ttr.cards import hand_of
from domain.ttr.events import RouteClaimed
from domain.ttr.payment import payments
from domain.ttr.state import TtrState

from .helpers import act, card_total, crafted, remainder, types

BOARD = load_board()


def claim(route: str, souvenir: str | None = None, **cards: int) -> ClaimRoute:
    """A claim_route action paying ``cards``."""
    return ClaimRoute.paying(route, cards, souvenir)


def refused(state: TtrState, seat: int, action: ClaimRoute, code: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, seat, action)
    assert info.value.code == code, info.value
    return info.value


def with_hand(*cards: str, players: int = 2, **kw: object) -> TtrState:
    """A crafted state where seat 0 holds ``cards`` (every other card in the deck)."""
    return crafted(players, hands=[cards] + [()] * (players - 1), **kw)  # type: ignore[arg-type]


def test_a_coloured_route_takes_its_colour() -> None:
    state = with_hand("black", "red")
    events, after = act(state, 0, claim("marina--fort-mason", black=1))
    assert events == [
        RouteClaimed(
            seat=0, route="marina--fort-mason", cards={"black": 1}, souvenir=None, points=1, ends_turn=True
        ),
    ]
    player = after.players[0]
    assert player.hand == hand_of(["red"]) and player.cars == 19 and player.score == 1
    assert player.routes == ("marina--fort-mason",)
    assert after.discard == ("black",) and card_total(after) == 44
    assert GAME.view(after, None)["claimed"] == {"marina--fort-mason": 0}
    refused(state, 0, claim("marina--fort-mason", red=1), "wrong_cards")


def test_ferries_are_jokers() -> None:
    state = with_hand("ferry", "purple")
    _, after = act(state, 0, claim("marina--lombard-street", purple=1, ferry=1))
    assert after.players[0].hand_count == 0
    _, after = act(with_hand("ferry", "ferry"), 0, claim("marina--lombard-street", ferry=2))
    assert after.players[0].score == 2


def test_a_gray_route_takes_cards_of_one_colour() -> None:
    state = with_hand("red", "red", "blue", "ferry")
    act(state, 0, claim("marina--pacific-heights", red=2))
    act(state, 0, claim("marina--pacific-heights", blue=1, ferry=1))
    error = refused(state, 0, claim("marina--pacific-heights", red=1, blue=1), "wrong_cards")
    assert "one colour" in error.detail


def test_the_payment_must_match_the_length() -> None:
    state = with_hand("red", "red", "red")
    refused(state, 0, claim("marina--pacific-heights", red=3), "wrong_cards")
    refused(state, 0, claim("marina--pacific-heights", red=1), "wrong_cards")


def test_a_ferry_route_needs_one_ferry_card_per_ferry_symbol() -> None:
    state = with_hand("red", "red", "ferry", "ferry")
    error = refused(state, 0, claim("pier-39--alcatraz", red=2), "wrong_cards")
    assert "ferry" in error.detail
    act(state, 0, claim("pier-39--alcatraz", red=1, ferry=1))
    act(state, 0, claim("pier-39--alcatraz", ferry=2))
    five = with_hand("green", "green", "green", "green", "ferry")
    events, _ = act(five, 0, claim("golden-gate-bridge--fort-mason", green=4, ferry=1, souvenir=None))
    assert isinstance(events[0], RouteClaimed) and events[0].points == 10


def test_the_cards_must_be_in_hand() -> None:
    refused(with_hand("black"), 0, claim("marina--lombard-street", purple=2), "not_enough_cards")
    refused(with_hand("purple"), 0, claim("marina--lombard-street", purple=1, ferry=1), "not_enough_cards")


def test_enough_cars_are_needed() -> None:
    state = with_hand("purple", "purple", "black", cars=[1, 20])
    refused(state, 0, claim("marina--lombard-street", purple=2), "not_enough_cars")
    _, after = act(state, 0, claim("marina--fort-mason", black=1))
    assert after.players[0].cars == 0


def test_a_claimed_route_is_taken() -> None:
    state = with_hand("black", claimed={"marina--fort-mason": 1})
    refused(state, 0, claim("marina--fort-mason", black=1), "route_taken")


def test_unknown_route() -> None:
    refused(with_hand("black"), 0, claim("marina--moon", black=1), "unknown_route")


def test_never_both_routes_of_a_double_route() -> None:
    for players in (2, 3, 4):
        state = with_hand("purple", players=players, claimed={"fishermans-wharf--pier-39-a": 0})
        refused(state, 0, claim("fishermans-wharf--pier-39-b", purple=1), "double_route_same_player")


def test_two_players_a_double_route_closes_once_one_route_is_claimed() -> None:
    state = with_hand("purple", claimed={"fishermans-wharf--pier-39-a": 1})
    error = refused(state, 0, claim("fishermans-wharf--pier-39-b", purple=1), "double_route_closed")
    assert "2-player" in error.detail
    listed = {a.route for a in GAME.legal_actions(state, 0) if isinstance(a, ClaimRoute)}
    assert "fishermans-wharf--pier-39-b" not in listed and "japantown--painted-ladies" in listed


@pytest.mark.parametrize("players", [3, 4])
def test_with_more_players_the_other_route_of_a_double_stays_open(players: int) -> None:
    state = with_hand("purple", players=players, claimed={"fishermans-wharf--pier-39-a": 1})
    events, _ = act(state, 0, claim("fishermans-wharf--pier-39-b", purple=1))
    assert types(events)[0] == "route_claimed+turn_ended"


def test_one_route_per_turn() -> None:
    state = with_hand("black", "purple", "purple")
    _, after = act(state, 0, claim("marina--fort-mason", black=1))
    with pytest.raises(NotYourTurn):
        GAME.decide(after, 0, claim("marina--lombard-street", purple=2))


@pytest.mark.parametrize(
    ("route", "cards", "points"),
    [
        ("marina--fort-mason", {"black": 1}, 1),
        ("marina--lombard-street", {"purple": 2}, 2),
        ("golden-gate-bridge--ocean-beach", {"purple": 3}, 4),
        ("the-embarcadero--alcatraz", {"red": 3, "ferry": 1}, 7),
        ("golden-gate-bridge--fort-mason", {"red": 4, "ferry": 1}, 10),
    ],
)
def test_routes_score_from_the_route_table(route: str, cards: dict[str, int], points: int) -> None:
    hand = [c for c, n in cards.items() for _ in range(n)]
    action = ClaimRoute.paying(route, cards, "bridge" if route == "the-embarcadero--alcatraz" else None)
    events, after = act(with_hand(*hand), 0, action)
    assert isinstance(events[0], RouteClaimed) and events[0].points == points
    assert after.players[0].score == points


def test_legal_claims_list_every_distinct_payment() -> None:
    route = BOARD.routes_by_id["marina--pacific-heights"]  # gray, 2 spaces
    hand = hand_of(["red", "red", "blue", "ferry"])
    assert payments(route, hand) == [{"blue": 1, "ferry": 1}, {"red": 2}, {"red": 1, "ferry": 1}]
    ferry_route = BOARD.routes_by_id["pier-39--alcatraz"]  # gray, 2 spaces, 1 ferry
    assert payments(ferry_route, hand_of(["red", "ferry", "ferry"])) == [{"red": 1, "ferry": 1}, {"ferry": 2}]
    assert payments(ferry_route, hand_of(["red", "red"])) == []
    state = with_hand("red", "red", "blue", "ferry")
    listed = {a for a in GAME.legal_actions(state, 0) if isinstance(a, ClaimRoute)}
    assert claim("marina--pacific-heights", red=2) in listed
    assert claim("marina--pacific-heights", red=1, blue=1) not in listed
    for action in listed:
        GAME.decide(state, 0, action)


def test_hand_and_supply_after_a_claim_account_for_all_cards() -> None:
    hand = ("orange", "orange", "orange", "ferry")
    state = crafted(hands=[hand, ()], deck=remainder(("blue", "green", "black", "purple", "red"), hand))
    _, after = act(state, 0, claim("the-embarcadero--alcatraz", "bridge", orange=3, ferry=1))
    assert after.discard == ("orange", "orange", "orange", "ferry")  # canonical colour order
    assert card_total(after) == 44
