"""Apply one event to the state.

``evolve`` trusts the event log: it never validates and never draws random
numbers; every outcome is in the event.  It must stay fast (a whole game is
replayed on every read), so each handler copies only the records it touches (with the fast
:func:`~domain.ttr.state.evolved`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from domain.clocks import parse_time_control
from domain.core import Event, rules_generation
from domain.forfeits import GameCancelled, SeatResigned, SeatTimedOut, marked_out, next_in
from domain.rng import Rng
from domain.ttr.actions import SOURCE_DECK, SOURCE_FACE_UP
from domain.ttr.board import load_board
from domain.ttr.cards import EMPTY_HAND, add_cards, expand, remove_counts
from domain.ttr.events import (
    CardDrawn,
    CardsDealt,
    DeckRebuilt,
    FaceUpRefilled,
    FaceUpReset,
    GameEnded,
    GameSetUp,
    LastRoundStarted,
    PlayStarted,
    RouteClaimed,
    SouvenirStackPlaced,
    TicketsDealt,
    TicketsDrawn,
    TicketsKept,
    TurnEnded,
    TurnPassed,
)
from domain.ttr.state import (
    END_CANCELLED,
    PHASE_CHOOSING_TICKETS,
    PHASE_FINISHED,
    PHASE_SECOND_DRAW,
    PHASE_SETUP,
    PHASE_TURN_START,
    ROW_SIZE,
    RULES_VERSIONS,
    TOKENS_PER_SYMBOL,
    PlayerState,
    SouvenirStack,
    TtrState,
    evolved,
)
from domain.turnends import carries_turn_end


def initial_state(event: GameSetUp) -> TtrState:
    """The state right after ``game_set_up`` (nothing dealt yet)."""
    board = load_board()
    if event.rng_key is None or event.deck is None or event.ticket_deck is None:
        raise ValueError("game_set_up must be applied unredacted")
    cars = board.cars_per_player
    stacks = tuple(
        SouvenirStack(location, symbol, event.stack_size)
        for location, symbol in zip(board.fixed_souvenir_locations, event.souvenir_symbols, strict=True)
    )
    box = tuple(
        TOKENS_PER_SYMBOL - (event.set_aside_size if symbol in event.set_aside else event.stack_size)
        for symbol in board.souvenir_symbols
    )
    return TtrState(
        players=tuple(PlayerState(name=name, cars=cars, score=0, hand=EMPTY_HAND) for name in event.players),
        start_seat=event.start_seat,
        rng=Rng(event.rng_key, event.rng_counter),
        deck=tuple(event.deck),
        discard=(),
        face_up=(None,) * ROW_SIZE,
        ticket_deck=tuple(event.ticket_deck),
        claimed=(None,) * len(board.routes),
        stacks=stacks,
        set_aside=tuple(event.set_aside),
        set_aside_size=event.set_aside_size,
        placers=tuple(event.placers),
        box=box,
        phase=PHASE_SETUP,
        turn=event.start_seat,
        out=(None,) * len(event.players),
        time_control=parse_time_control(event.time_control),
        rules=rules_generation(RULES_VERSIONS, event.rules_version),
    )


def _cards_dealt(state: TtrState, event: CardsDealt) -> TtrState:
    players = list(state.players)
    dealt = 0
    for seat, cards in enumerate(event.hands):
        cards = cards or ()
        players[seat] = evolved(players[seat], hand=add_cards(players[seat].hand, cards))
        dealt += len(cards)
    return evolved(state, players=tuple(players), deck=state.deck[dealt:])


def _tickets_dealt(state: TtrState, event: TicketsDealt) -> TtrState:
    players = list(state.players)
    dealt = 0
    for seat, tickets in enumerate(event.tickets):
        tickets = tickets or ()
        players[seat] = evolved(players[seat], pending=players[seat].pending + tuple(tickets))
        dealt += len(tickets)
    return evolved(state, players=tuple(players), ticket_deck=state.ticket_deck[dealt:])


def _face_up_refilled(state: TtrState, event: FaceUpRefilled) -> TtrState:
    row = state.face_up
    face_up = row[: event.slot] + (event.card,) + row[event.slot + 1 :]
    return evolved(state, face_up=face_up, deck=state.deck[1:])


def _face_up_reset(state: TtrState, event: FaceUpReset) -> TtrState:
    return evolved(state, face_up=(None,) * ROW_SIZE, discard=state.discard + tuple(event.discarded))


def _deck_rebuilt(state: TtrState, event: DeckRebuilt) -> TtrState:
    if event.deck is None:
        raise ValueError("deck_rebuilt must be applied unredacted")
    return evolved(
        state, deck=state.deck + tuple(event.deck), discard=(), rng=Rng(state.rng.key, event.rng_counter)
    )


def _souvenir_stack_placed(state: TtrState, event: SouvenirStackPlaced) -> TtrState:
    set_aside = list(state.set_aside)
    set_aside.remove(event.symbol)
    return evolved(
        state,
        stacks=state.stacks + (SouvenirStack(event.location, event.symbol, event.count),),
        set_aside=tuple(set_aside),
        placers=state.placers[1:],
    )


def _tickets_kept(state: TtrState, event: TicketsKept) -> TtrState:
    if event.kept is None or event.returned is None:
        raise ValueError("tickets_kept must be applied unredacted")
    player = state.players[event.seat]
    player = evolved(player, tickets=player.tickets + tuple(event.kept), pending=())
    state = evolved(
        state,
        players=state.with_player(event.seat, player),
        ticket_deck=state.ticket_deck + tuple(event.returned),
    )
    if state.phase == PHASE_CHOOSING_TICKETS:
        state = evolved(state, phase=PHASE_TURN_START)
    return state


def _play_started(state: TtrState, event: PlayStarted) -> TtrState:
    return evolved(state, phase=PHASE_TURN_START, turn=event.seat, turns=state.turns + 1)


def _card_drawn(state: TtrState, event: CardDrawn) -> TtrState:
    if event.card is None:
        raise ValueError("card_drawn must be applied unredacted")
    player = state.players[event.seat]
    player = evolved(player, hand=add_cards(player.hand, (event.card,)))
    phase = PHASE_SECOND_DRAW if state.phase == PHASE_TURN_START else PHASE_TURN_START
    players = state.with_player(event.seat, player)
    if event.source == SOURCE_DECK:
        return evolved(state, players=players, deck=state.deck[1:], phase=phase)
    assert event.source == SOURCE_FACE_UP and event.slot is not None
    row = state.face_up
    face_up = row[: event.slot] + (None,) + row[event.slot + 1 :]
    return evolved(state, players=players, face_up=face_up, phase=phase)


def _route_claimed(state: TtrState, event: RouteClaimed) -> TtrState:
    board = load_board()
    route = board.routes_by_id[event.route]
    payment: Mapping[str, int] = event.cards
    player = state.players[event.seat]
    souvenirs = player.souvenirs
    stacks = state.stacks
    if event.souvenir is not None:
        souvenirs = souvenirs + (event.souvenir,)
        stacks = tuple(
            replace(s, count=s.count - 1) if s.symbol == event.souvenir and s.location in route.ends else s
            for s in stacks
        )
    player = evolved(
        player,
        hand=remove_counts(player.hand, payment),
        cars=player.cars - route.length,
        score=player.score + event.points,
        souvenirs=souvenirs,
        routes=player.routes + (route.id,),
    )
    claimed = state.claimed
    return evolved(
        state,
        players=state.with_player(event.seat, player),
        discard=state.discard + expand(payment),
        claimed=claimed[: route.index] + (event.seat,) + claimed[route.index + 1 :],
        stacks=stacks,
    )


def _tickets_drawn(state: TtrState, event: TicketsDrawn) -> TtrState:
    if event.tickets is None:
        raise ValueError("tickets_drawn must be applied unredacted")
    player = evolved(state.players[event.seat], pending=tuple(event.tickets))
    return evolved(
        state,
        players=state.with_player(event.seat, player),
        ticket_deck=state.ticket_deck[len(event.tickets) :],
        phase=PHASE_CHOOSING_TICKETS,
    )


def _next_turn(state: TtrState, passes: int) -> TtrState:
    """The turn passes to the next seat still in (seats that are out are skipped)."""
    left = state.final_turns_left
    return evolved(
        state,
        turn=next_in(state.out, state.turn),
        phase=PHASE_TURN_START,
        passes=passes,
        final_turns_left=None if left is None else left - 1,
        turns=state.turns + 1,
    )


def _turn_ended(state: TtrState, event: TurnEnded) -> TtrState:
    return _next_turn(state, 0)


def _turn_passed(state: TtrState, event: TurnPassed) -> TtrState:
    return _next_turn(state, state.passes + 1)


def _last_round_started(state: TtrState, event: LastRoundStarted) -> TtrState:
    return evolved(state, final_turns_left=len(state.seats_in))


def _game_ended(state: TtrState, event: GameEnded) -> TtrState:
    return evolved(state, phase=PHASE_FINISHED, end_reason=event.reason)


def _upcoming(state: TtrState) -> tuple[int, ...]:
    """The seats still to play in the last round, the seat to play first."""
    seats, seat = [], state.turn
    for _ in range(state.final_turns_left or 0):
        seats.append(seat)
        seat = next_in(state.out, seat)
    return tuple(seats)


def _seat_out(state: TtrState, event: SeatResigned | SeatTimedOut) -> TtrState:
    """``event.seat`` is out.  In the last round, a final turn it had still
    to play is dropped (unless it is playing it now: the turn's end, which
    follows, uses it up)."""
    left = state.final_turns_left
    if left is not None and event.seat != state.turn and event.seat in _upcoming(state):
        left -= 1
    return evolved(state, out=marked_out(state.out, event.seat, event), final_turns_left=left)


def _game_cancelled(state: TtrState, event: GameCancelled) -> TtrState:
    return evolved(state, phase=PHASE_FINISHED, end_reason=END_CANCELLED)


_HANDLERS: Mapping[type[Event], Callable[[TtrState, Any], TtrState]] = {
    CardsDealt: _cards_dealt,
    TicketsDealt: _tickets_dealt,
    FaceUpRefilled: _face_up_refilled,
    FaceUpReset: _face_up_reset,
    DeckRebuilt: _deck_rebuilt,
    SouvenirStackPlaced: _souvenir_stack_placed,
    TicketsKept: _tickets_kept,
    PlayStarted: _play_started,
    CardDrawn: _card_drawn,
    RouteClaimed: _route_claimed,
    TicketsDrawn: _tickets_drawn,
    TurnEnded: _turn_ended,
    TurnPassed: _turn_passed,
    LastRoundStarted: _last_round_started,
    GameEnded: _game_ended,
    SeatResigned: _seat_out,
    SeatTimedOut: _seat_out,
    GameCancelled: _game_cancelled,
}


def evolve(state: TtrState | None, event: Event) -> TtrState:
    """The state after ``event`` (``state`` is None only for ``game_set_up``)."""
    if state is None:
        if not isinstance(event, GameSetUp):
            raise ValueError(f"the first event must be game_set_up, not {event.TYPE!r}")
        return initial_state(event)
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise ValueError(f"unexpected event {event.TYPE!r}")
    state = handler(state, event)
    if carries_turn_end(event):  # then exactly what turn_ended does
        state = _next_turn(state, 0)
    return state
