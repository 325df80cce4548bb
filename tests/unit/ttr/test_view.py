"""Views and redacted events: what each seat and a spectator may see."""

from __future__ import annotations

from dataclasses import replace

from domain.ttr import GAME
from domain.ttr.actions import DrawCard, KeepTickets
from domain.ttr.events import CardsDealt, DeckRebuilt, GameSetUp, TicketsDealt

from .helpers import act, crafted, finish_setup, new_game

TOP_LEVEL = {
    "status",
    "phase",
    "active_seats",
    "turn",
    "start_seat",
    "final_turns_left",
    "players",
    "face_up",
    "deck_count",
    "discard_count",
    "tickets_left",
    "claimed",
    "souvenir_stacks",
    "set_aside",
    "set_aside_stack_size",
    "souvenir_placer",
    "souvenirs_in_box",
    "result",
}
PLAYER = {
    "seat",
    "standing",
    "name",
    "color",
    "score",
    "cars",
    "hand_count",
    "ticket_count",
    "pending_ticket_count",
    "souvenirs",
    "routes",
}


def test_view_fields() -> None:
    _, state = new_game(3)
    spectator = GAME.view(state, None)
    assert set(spectator) == TOP_LEVEL
    seat = GAME.view(state, 1)
    assert set(seat) == TOP_LEVEL | {"me"}
    assert set(seat["me"]) == {"seat", "hand", "tickets", "pending_tickets"}
    for i, player in enumerate(seat["players"]):
        assert set(player) == PLAYER and player["seat"] == i
    assert [p["color"] for p in seat["players"]] == ["purple", "white", "pink"]
    assert seat["me"]["hand"]["ferry"] >= 0 and sum(seat["me"]["hand"].values()) == 2
    assert set(seat["me"]["pending_tickets"][0]) == {"id", "from", "to", "points"}
    assert spectator["status"] == "setup" and spectator["turn"] is None
    assert spectator["deck_count"] == 44 - 6 - 5 and spectator["tickets_left"] == 24 - 6
    assert spectator["souvenir_stacks"]["alcatraz"]["count"] == 2
    assert spectator["result"] is None


def test_the_playing_view_names_the_turn_and_phase() -> None:
    state = crafted()
    view = GAME.view(state, 0)
    assert (view["status"], view["phase"], view["turn"], view["active_seats"]) == (
        "playing",
        "turn_start",
        0,
        [0],
    )
    _, state = act(state, 0, DrawCard("deck"))
    assert GAME.view(state, 1)["phase"] == "second_draw"


def test_after_the_end_hands_and_tickets_are_public() -> None:
    state = crafted(hands=[("black", "black"), ("red",)], cars=[2, 20], tickets=[("T01",), ("T02",)])
    _, state = act(state, 0, DrawCard("deck"))
    _, state = act(state, 0, DrawCard("deck"))
    _, state = act(state, 1, DrawCard("deck"))
    _, state = act(state, 1, DrawCard("deck"))
    _, state = act(state, 0, DrawCard("deck"))
    _, state = act(state, 0, DrawCard("deck"))
    assert GAME.status(state) == "finished"
    view = GAME.view(state, None)
    assert set(view["players"][1]) == PLAYER | {"hand", "tickets"}
    assert view["players"][1]["tickets"][0]["id"] == "T02"
    assert view["players"][1]["hand"]["red"] >= 1
    result = view["result"]
    assert result["winners"] and len(result["players"]) == 2
    assert set(result["players"][0]) == {
        "seat",
        "route_points",
        "ticket_points",
        "souvenir_points",
        "total",
        "completed_tickets",
        "tickets",
        "standing",
    }
    assert result["players"][0]["tickets"] == [{"id": "T01", "completed": False, "points": -11}]


def test_setup_events_are_redacted_for_other_seats_and_spectators() -> None:
    events, state = new_game(2)
    first, dealt, tickets = events[0], events[1], events[-1]
    assert (
        isinstance(first, GameSetUp) and isinstance(dealt, CardsDealt) and isinstance(tickets, TicketsDealt)
    )
    for seat in (0, 1, None):
        payload = GAME.redact(state, first, seat)
        assert payload["rng_key"] is None and payload["deck"] is None and payload["ticket_deck"] is None
        assert payload["souvenir_symbols"] == list(first.souvenir_symbols)
    assert GAME.redact(state, dealt, 0)["hands"] == [list(dealt.hands[0] or ()), None]
    assert GAME.redact(state, dealt, 1)["hands"] == [None, list(dealt.hands[1] or ())]
    assert GAME.redact(state, dealt, None)["hands"] == [None, None]
    assert GAME.redact(state, tickets, None)["tickets"] == [None, None]


def test_blind_draws_are_secret_face_up_draws_public() -> None:
    state = crafted()
    blind, state = act(state, 0, DrawCard("deck"))
    assert GAME.redact(state, blind[0], 0)["card"] == "blue"
    assert GAME.redact(state, blind[0], 1)["card"] is None
    assert GAME.redact(state, blind[0], None)["card"] is None
    shown, state = act(state, 0, DrawCard("face_up", 1))
    for seat in (0, 1, None):
        assert GAME.redact(state, shown[0], seat)["card"] == "green"
        assert GAME.redact(state, shown[1], seat)["card"] == state.face_up[1]


def test_kept_tickets_are_secret_counts_public() -> None:
    events, state = new_game(2)
    pending = state.players[0].pending
    kept, state = act(state, 0, KeepTickets(pending[:1]))
    assert GAME.redact(state, kept[0], 0)["kept"] == [pending[0]]
    other = GAME.redact(state, kept[0], 1)
    assert other["kept"] is None and other["returned"] is None
    assert (other["kept_count"], other["returned_count"]) == (1, 1)


def test_a_rebuilt_deck_order_is_secret_to_everybody() -> None:
    event = DeckRebuilt(deck=("red", "blue"), count=2, rng_counter=5)
    state = crafted()
    for seat in (0, 1, None):
        assert GAME.redact(state, event, seat) == {"deck": None, "count": 2, "rng_counter": 5, "ends_turn": False}


def test_everything_is_public_once_finished() -> None:
    events, state = new_game(2)
    more, state = finish_setup(state)
    events += more
    done = replace(state, phase="finished", end_reason="stalemate")
    for event in events:
        assert GAME.redact(done, event, 1) == event.to_payload()
