"""Game creation: config checks, seeded orders, the deal, souvenir stacks."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.core import GameConfig, replay
from domain.errors import InvalidConfig
from domain.ttr import GAME
from domain.ttr.events import CardsDealt, FaceUpRefilled, FaceUpReset, GameSetUp, TicketsDealt
from domain.ttr.setup import opening_events, souvenir_layout

from .helpers import BOARD, card_total, config, new_game, remainder, types


@pytest.mark.parametrize("players", [0, 1, 5])
def test_player_count_is_checked(players: int) -> None:
    with pytest.raises(InvalidConfig) as info:
        GAME.setup(GameConfig(players=tuple(f"p{i}" for i in range(players)), seed="s"))
    assert info.value.code == "player_count"


@pytest.mark.parametrize("start_seat", [-1, 2, 7])
def test_start_seat_is_checked(start_seat: int) -> None:
    with pytest.raises(InvalidConfig) as info:
        GAME.setup(GameConfig(players=("a", "b"), seed="s", start_seat=start_seat))
    assert info.value.code == "start_seat"


def test_opening_events_in_order() -> None:
    events, state = new_game(3)
    assert types(events) == ["game_set_up", "cards_dealt"] + ["face_up_refilled"] * 5 + ["tickets_dealt"]
    first = events[0]
    assert isinstance(first, GameSetUp)
    assert first.players == ("Ada", "Bo", "Cy") and first.start_seat == 0
    assert Counter(first.deck or ()) == Counter(BOARD.full_deck())
    assert sorted(first.ticket_deck or ()) == sorted(t.id for t in BOARD.tickets)
    dealt = events[1]
    assert isinstance(dealt, CardsDealt)
    assert dealt.hands == tuple((first.deck or ())[2 * i : 2 * i + 2] for i in range(3))
    assert all(
        p.hand_count == 2 and len(p.pending) == 2 and p.cars == 20 and p.score == 0 for p in state.players
    )
    assert card_total(state) == 44
    assert len(state.ticket_deck) == 24 - 6
    assert GAME.status(state) == "setup"


def test_seed_fixes_the_orders_exactly() -> None:
    """Pins the seeded shuffles (symbols, then deck, then tickets): any change
    of the RNG or of the way setup uses it shows here and breaks old games."""
    first = GAME.setup(config(2, "golden"))[0]
    assert isinstance(first, GameSetUp)
    assert first.deck is not None and first.ticket_deck is not None
    assert first.souvenir_symbols == ("sourdough", "fortune-cookie", "key", "surfboard", "bridge")
    assert first.set_aside == ("sea-lion", "cable-car-bell")
    assert first.deck[:10] == (
        "blue", "purple", "blue", "purple", "red", "green", "purple", "blue", "green", "black",
    )  # fmt: skip
    assert first.ticket_deck[:6] == ("T22", "T02", "T20", "T11", "T24", "T16")
    assert first.rng_counter == 72


@pytest.mark.parametrize(
    ("players", "start", "stack", "aside", "placers"),
    [
        (2, 0, 2, 1, (1, 1)),
        (2, 1, 2, 1, (0, 0)),
        (3, 0, 2, 2, (2, 1)),
        (3, 1, 2, 2, (0, 2)),
        (4, 0, 3, 3, (3, 2)),
        (4, 2, 3, 3, (1, 0)),
    ],
)
def test_souvenir_layout(players: int, start: int, stack: int, aside: int, placers: tuple[int, ...]) -> None:
    assert souvenir_layout(players, start) == (stack, aside, placers)
    events, state = new_game(players, start_seat=start)
    assert [s.location for s in state.stacks] == list(BOARD.fixed_souvenir_locations)
    assert all(s.count == stack for s in state.stacks)
    assert len(state.set_aside) == 2 and state.set_aside_size == aside
    assert state.placers == placers
    symbols = [s.symbol for s in state.stacks] + list(state.set_aside)
    assert sorted(symbols) == sorted(BOARD.souvenir_symbols)
    # 21 tokens: stacks + set-aside stacks + box
    assert 5 * stack + 2 * aside + sum(state.box) == 21


@pytest.mark.parametrize("players", [2, 3, 4])
def test_box_holds_the_unused_tokens_per_symbol(players: int) -> None:
    _, state = new_game(players)
    box = dict(zip(BOARD.souvenir_symbols, state.box, strict=True))
    for stack in state.stacks:
        assert box[stack.symbol] + stack.count == 3
    for symbol in state.set_aside:
        assert box[symbol] + state.set_aside_size == 3
    assert sum(state.box) == {2: 9, 3: 7, 4: 0}[players]


def _set_up_event(deck: tuple[str, ...], players: int = 2) -> GameSetUp:
    return GameSetUp(
        players=("Ada", "Bo", "Cy", "Di")[:players],
        start_seat=0,
        rules_version="ttr-sf/1",
        board_version="san-francisco/1",
        rng_key="00" * 32,
        rng_counter=0,
        deck=deck,
        ticket_deck=tuple(t.id for t in BOARD.tickets),
        souvenir_symbols=BOARD.souvenir_symbols[:5],
        stack_size=2,
        set_aside=BOARD.souvenir_symbols[5:],
        set_aside_size=1,
        placers=(1, 1),
    )


def test_three_ferries_at_setup_reset_the_row() -> None:
    hands = ("red", "red", "blue", "blue")
    row = ("ferry", "green", "ferry", "black", "ferry")
    second_row = ("orange", "orange", "ferry", "purple", "purple")
    deck = hands + row + second_row + remainder(hands, row, second_row)
    events = opening_events(_set_up_event(deck))
    assert types(events) == (
        ["game_set_up", "cards_dealt"]
        + ["face_up_refilled"] * 5
        + ["face_up_reset"]
        + ["face_up_refilled"] * 5
    ) + ["tickets_dealt"]
    reset = events[7]
    assert isinstance(reset, FaceUpReset) and reset.discarded == row
    refills = [e for e in events[8:13] if isinstance(e, FaceUpRefilled)]
    assert tuple(e.card for e in refills) == second_row
    state = replay(GAME, events)
    assert state.face_up == second_row and state.discard == row
    assert card_total(state) == 44


def test_repeated_resets_at_setup_until_the_row_has_fewer_than_three_ferries() -> None:
    hands = ("red", "red", "blue", "blue")
    rows = (
        ("ferry",) * 3 + ("green", "green"),
        ("ferry",) * 3 + ("black", "black"),
        ("red",) * 4 + ("ferry",),
    )
    flat = tuple(c for row in rows for c in row)
    deck = hands + flat + remainder(hands, flat)
    events = opening_events(_set_up_event(deck))
    assert types(events).count("face_up_reset") == 2
    assert isinstance(events[-1], TicketsDealt)
    assert events[-1].tickets == (("T01", "T02"), ("T03", "T04"))


def test_a_seed_that_is_not_valid_unicode_is_refused() -> None:
    with pytest.raises(InvalidConfig) as info:
        GAME.setup(GameConfig(players=("a", "b"), seed="bad\ud800"))
    assert info.value.code == "seed"
