"""Rulebook rules of ttr-sf that set no limit: hand size, ticket count, where a route may be claimed.

Each test quotes the rulebook sentence it checks (Danish text, ``shared/seeds/001``;
the other translations say the same).
"""

from __future__ import annotations

from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets
from domain.ttr.board import load_board

from .helpers import act, card_total, crafted

BOARD = load_board()


def test_a_hand_of_cards_has_no_limit() -> None:
    """"Der er ingen begrænsning på, hvor mange kort en spiller må have på sin hånd."
    (There is no limit on how many cards a player may hold in its hand.)"""
    big = ("blue",) * 6 + ("green",) * 6 + ("black",) * 6 + ("purple",) * 6 + ("ferry",) * 8
    state = crafted(hands=[big, ()], face_up=("red", "red", "orange", "orange", "red"))
    assert state.players[0].hand_count == 32
    assert DrawCard("deck") in GAME.legal_actions(state, 0)
    _, state = act(state, 0, DrawCard("deck"))
    _, state = act(state, 0, DrawCard("face_up", 0))
    assert state.players[0].hand_count == 34 and state.turn == 1 and card_total(state) == 44
    # and it goes on growing on later turns
    _, state = act(state, 1, DrawCard("deck"))
    _, state = act(state, 1, DrawCard("deck"))
    _, state = act(state, 0, DrawCard("deck"))
    _, state = act(state, 0, DrawCard("deck"))
    assert state.players[0].hand_count == 36


def test_a_player_may_hold_any_number_of_tickets() -> None:
    """"Der er ingen begrænsning på antallet af rutekort, som en spiller må have."
    (There is no limit on the number of destination tickets a player may hold.)"""
    held = tuple(t.id for t in BOARD.tickets[:18])
    rest = tuple(t.id for t in BOARD.tickets[18:])
    state = crafted(tickets=[held, ()], ticket_deck=rest)
    for _ in range(3):  # every ticket left, two at a time, all kept
        assert DrawTickets() in GAME.legal_actions(state, 0)
        _, state = act(state, 0, DrawTickets())
        pending = state.players[0].pending
        assert KeepTickets(pending) in GAME.legal_actions(state, 0)
        _, state = act(state, 0, KeepTickets(pending))
        _, state = act(state, 1, DrawCard("deck"))
        _, state = act(state, 1, DrawCard("deck"))
    assert len(state.players[0].tickets) == 24 and state.ticket_deck == ()


def test_a_route_may_be_claimed_unconnected_to_the_players_other_routes() -> None:
    """"Det er tilladt at gøre krav på en hvilken som helst strækning på spillepladen, også selvom
    den ikke er forbundet med andre strækninger, som man har gjort krav på."
    (Any route on the board may be claimed, even one not connected to the player's other routes.)"""
    first, far = BOARD.routes_by_id["marina--fort-mason"], BOARD.routes_by_id["haight-ashbury--twin-peaks"]
    assert not {first.a, first.b} & {far.a, far.b}
    state = crafted(hands=[("black",) * 3, ()], claimed={first.id: 0})
    claim = ClaimRoute.paying(far.id, {"black": 2})
    assert claim in GAME.legal_actions(state, 0)
    _, after = act(state, 0, claim)
    assert after.players[0].routes == (first.id, far.id)
    assert GAME.view(after, None)["claimed"] == {first.id: 0, far.id: 0}
