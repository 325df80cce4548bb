"""Drawing destination tickets during play."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction, NotYourTurn
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets
from domain.ttr.events import TicketsDrawn, TicketsKept

from .helpers import act, crafted


def test_draw_two_keep_one_returns_the_other_to_the_bottom() -> None:
    state = crafted(ticket_deck=("T05", "T06", "T07", "T08"))
    events, state = act(state, 0, DrawTickets())
    assert events == [TicketsDrawn(seat=0, tickets=("T05", "T06"), count=2)]
    assert state.phase == "choosing_tickets" and state.players[0].pending == ("T05", "T06")
    assert GAME.legal_actions(state, 0) == [
        KeepTickets(("T05",)),
        KeepTickets(("T06",)),
        KeepTickets(("T05", "T06")),
    ]
    events, state = act(state, 0, KeepTickets(("T06",)))
    assert events == [
        TicketsKept(
            seat=0, kept=("T06",), returned=("T05",), kept_count=1, returned_count=1, ends_turn=True
        ),
    ]
    assert state.ticket_deck == ("T07", "T08", "T05")
    assert state.players[0].tickets == ("T06",) and state.turn == 1


def test_keep_both() -> None:
    state = crafted(ticket_deck=("T05", "T06"))
    _, state = act(state, 0, DrawTickets())
    _, state = act(state, 0, KeepTickets(("T05", "T06")))
    assert state.ticket_deck == () and state.players[0].tickets == ("T05", "T06")


def test_nothing_else_until_the_drawn_tickets_are_chosen() -> None:
    state = crafted(hands=[("black",), ()], ticket_deck=("T05", "T06"))
    _, state = act(state, 0, DrawTickets())
    for action in (DrawCard("deck"), DrawTickets(), ClaimRoute.paying("marina--fort-mason", {"black": 1})):
        with pytest.raises(IllegalAction) as info:
            GAME.decide(state, 0, action)
        assert info.value.code == "pending_ticket_choice"
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 1, KeepTickets(("T05",)))
    for kept, code in (((), "must_keep_one_ticket"), (("T07",), "not_pending_ticket")):
        with pytest.raises(IllegalAction) as info:
            GAME.decide(state, 0, KeepTickets(kept))
        assert info.value.code == code


def test_with_one_ticket_left_it_is_drawn_and_must_be_kept() -> None:
    state = crafted(ticket_deck=("T09",))
    events, state = act(state, 0, DrawTickets())
    assert events == [TicketsDrawn(seat=0, tickets=("T09",), count=1)]
    assert GAME.legal_actions(state, 0) == [KeepTickets(("T09",))]
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, 0, KeepTickets(()))
    assert info.value.code == "must_keep_one_ticket"
    _, state = act(state, 0, KeepTickets(("T09",)))
    assert state.ticket_deck == ()


def test_with_no_ticket_left_drawing_tickets_is_illegal() -> None:
    state = crafted(ticket_deck=())
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, 0, DrawTickets())
    assert info.value.code == "no_tickets_left"
    assert DrawTickets() not in GAME.legal_actions(state, 0)


def test_keeping_tickets_without_a_draw_is_refused() -> None:
    state = crafted()
    with pytest.raises(IllegalAction) as info:
        GAME.decide(state, 0, KeepTickets(("T01",)))
    assert info.value.code == "no_pending_tickets"


def test_drawn_tickets_are_visible_only_to_their_owner() -> None:
    state = crafted(ticket_deck=("T05", "T06", "T07"))
    events, state = act(state, 0, DrawTickets())
    assert GAME.redact(state, events[0], 0)["tickets"] == ["T05", "T06"]
    assert GAME.redact(state, events[0], 1)["tickets"] is None
    assert GAME.redact(state, events[0], None)["count"] == 2
    assert [t["id"] for t in GAME.view(state, 0)["me"]["pending_tickets"]] == ["T05", "T06"]
    assert GAME.view(state, 1)["me"]["pending_tickets"] == []
    assert GAME.view(state, 1)["players"][0]["pending_ticket_count"] == 2
