"""Checks that must hold after every event of every game."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

from domain.core import Event, decode_event
from domain.rng import Rng
from domain.ttr import GAME
from domain.ttr.board import load_board
from domain.ttr.cards import CARD_TYPES, hand_of
from domain.ttr.scoring import route_points
from domain.ttr.state import TtrState

BOARD = load_board()
TICKET_ID = re.compile(r"\bT\d\d\b")


def check_state(state: TtrState, settled: bool = False) -> None:
    """Cards, tokens, tickets, cars and scores are all accounted for; once a
    move is ``settled``, an empty deck means an empty discard pile too."""
    cards: Counter[str] = Counter(state.deck) + Counter(state.discard)
    cards += Counter(c for c in state.face_up if c is not None)
    for player in state.players:
        cards += Counter({c: n for c, n in zip(CARD_TYPES, player.hand, strict=True) if n})
        assert min(player.hand) >= 0
    assert cards == Counter(BOARD.full_deck()), "44 cards accounted for"
    assert len(state.face_up) == 5
    for i, symbol in enumerate(BOARD.souvenir_symbols):
        on_board = sum(s.count for s in state.stacks if s.symbol == symbol)
        aside = state.set_aside_size * state.set_aside.count(symbol)
        held = sum(p.souvenirs.count(symbol) for p in state.players)
        assert on_board + aside + held + state.box[i] == 3, f"3 tokens of {symbol}"
    assert all(stack.count >= 0 for stack in state.stacks)
    tickets = list(state.ticket_deck)
    for player in state.players:
        tickets += [*player.tickets, *player.pending]
        assert len(set(player.souvenirs)) == len(player.souvenirs), "never two of a symbol"
    assert sorted(tickets) == sorted(t.id for t in BOARD.tickets), "24 tickets accounted for"
    for seat, player in enumerate(state.players):
        assert player.cars >= 0
        owned = [r.id for r in BOARD.routes if state.claimed[r.index] == seat]
        assert sorted(owned) == sorted(player.routes)
        assert player.cars == BOARD.cars_per_player - sum(BOARD.routes_by_id[r].length for r in owned)
        assert player.score == route_points(owned), "score equals the recount"
    if settled and state.deck == ():
        assert state.discard == (), "an empty deck is rebuilt at once"


def round_trip(event: Event) -> Event:
    """``event`` through its JSON payload and back."""
    payload = json.loads(json.dumps(event.to_payload()))
    return decode_event(GAME, event.TYPE, payload)


def masked(state: TtrState, seat: int | None) -> TtrState:
    """``state`` with every secret ``seat`` may not know replaced by something else."""
    players = []
    for i, player in enumerate(state.players):
        if i == seat:
            players.append(player)
            continue
        players.append(
            replace(
                player,
                hand=hand_of(["blue"] * player.hand_count),
                tickets=("T00",) * len(player.tickets),
                pending=("T00",) * len(player.pending),
            )
        )
    return replace(
        state,
        players=tuple(players),
        deck=tuple(reversed(state.deck)),
        ticket_deck=tuple(reversed(state.ticket_deck)),
        rng=Rng("ab" * 32, state.rng.counter),
    )


def check_secrets(state: TtrState, events: list[Event], seen: dict[int | None, set[str]]) -> None:
    """No seat's view or redacted events show another seat's secret.

    * the view of a seat does not change when every secret it may not know
      is replaced (non-interference);
    * no ticket id the seat has not been dealt or drawn itself appears in
      its view or redacted events; the rng key never appears;
    """
    if state.finished:
        return
    for seat in (*range(state.num_players), None):
        view = GAME.view(state, seat)
        assert view == GAME.view(masked(state, seat), seat), f"view of {seat} leaks a secret"
        text = json.dumps(view) + json.dumps([GAME.redact(state, e, seat) for e in events])
        assert state.rng.key not in text
        leaked = set(TICKET_ID.findall(text)) - seen[seat]
        assert not leaked, f"seat {seat} sees tickets {leaked}"
