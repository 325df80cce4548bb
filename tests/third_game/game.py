"""``stones``: a two-player take-away game.

A pile of :data:`PILE` stones; the seats take turns taking 1 to 3 of them, and
whoever takes the last stone wins; a seat that resigns or times out loses
at once (:mod:`domain.forfeits`).  At setup each seat is dealt one card from
the seed; a card stays hidden from the other seat (in views and in the event
log) until the game ends, and decides nothing: it exists so that redaction,
the seed commitment and the verifier's re-dealing have something to check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from domain.body import Integer, body_field
from domain.clocks import NO_TIME_CONTROL, TimeControl, parse_time_control
from domain.core import (
    JSON,
    STATUS_FINISHED,
    STATUS_PLAYING,
    Action,
    Decision,
    Event,
    GameConfig,
    GameDefinition,
    Move,
    Standing,
)
from domain.errors import IllegalAction, InvalidConfig, NotYourTurn
from domain.forfeits import (
    FORFEIT_EVENTS,
    STATUS_CANCELLED,
    GameCancelled,
    SeatResigned,
    SeatTimedOut,
    marked_out,
    resign_move,
    standings_of,
)
from domain.rng import Rng

PILE = 10
MAX_TAKE = 3
CARDS = tuple(range(1, 10))


# ------------------------------------------------------------------ events
@dataclass(frozen=True)
class Started(Event):
    TYPE: ClassVar[str] = "started"

    players: tuple[str, ...]
    pile: int
    first_seat: int
    time_control: Mapping[str, JSON] | None = None


@dataclass(frozen=True)
class CardDealt(Event):
    """A seat's hidden card (secret to that seat until the end)."""

    TYPE: ClassVar[str] = "card_dealt"

    seat: int
    card: int


@dataclass(frozen=True)
class StonesTaken(Event):
    TYPE: ClassVar[str] = "stones_taken"

    seat: int
    count: int


# ------------------------------------------------------------------- state
@dataclass(frozen=True)
class StonesState:
    players: tuple[str, ...]
    pile: int
    to_move: int
    cards: tuple[int | None, ...]
    winner: int | None = None
    out: tuple[str | None, ...] = (None, None)
    cancelled: bool = False
    #: both seats went out together: over, with no winner
    abandoned: bool = False
    time_control: TimeControl = NO_TIME_CONTROL


def evolve(state: StonesState | None, event: Event) -> StonesState:
    if isinstance(event, Started):
        return StonesState(event.players, event.pile, event.first_seat, (None,) * len(event.players),
                           time_control=parse_time_control(event.time_control))
    assert state is not None, f"{event.TYPE} before the game started"
    if isinstance(event, SeatResigned | SeatTimedOut):
        out = marked_out(state.out, event.seat, event)
        both_out = out[1 - event.seat] is not None
        return replace(state, out=out, winner=None if both_out else 1 - event.seat, abandoned=both_out)
    if isinstance(event, GameCancelled):
        return replace(state, cancelled=True)
    if isinstance(event, CardDealt):
        cards = list(state.cards)
        cards[event.seat] = event.card
        return replace(state, cards=tuple(cards))
    if isinstance(event, StonesTaken):
        pile = state.pile - event.count
        return replace(
            state,
            pile=pile,
            to_move=(event.seat + 1) % len(state.players),
            winner=event.seat if pile == 0 else None,
        )
    raise ValueError(f"not a stones event: {event.TYPE}")


# ------------------------------------------------------------------- setup
def setup(config: GameConfig) -> list[Event]:
    if len(config.players) != 2:
        raise InvalidConfig("player_count", "stones is played by exactly 2 players")
    if not 0 <= config.start_seat < 2:
        raise InvalidConfig("start_seat", "the start seat must be 0 or 1")
    dealt, _ = Rng.from_seed(config.seed).shuffle(CARDS)
    return [
        Started(config.players, PILE, config.start_seat,
                config.time_control.to_json() if config.time_control.timed else None),
        *(CardDealt(seat, dealt[seat]) for seat in range(2)),
    ]


# ------------------------------------------------------------------- moves
@dataclass(frozen=True)
class Take(Action):
    """Take ``count`` stones from the pile."""

    TYPE: ClassVar[str] = "take"

    count: int = body_field(Integer(minimum=1, maximum=MAX_TAKE))


def decide_take(decision: Decision[StonesState], seat: int, action: Take) -> None:
    state = decision.state
    if seat != state.to_move:
        raise NotYourTurn()
    if action.count > state.pile:
        raise IllegalAction("not_enough_stones", f"only {state.pile} stone(s) are left")
    decision.emit(StonesTaken(seat, action.count))


def legal_actions(state: StonesState, seat: int) -> list[Action]:
    if over(state) or seat != state.to_move:
        return []
    return [Take(n) for n in range(1, min(MAX_TAKE, state.pile) + 1)]


def action_of(event: Event) -> tuple[int, Action] | None:
    if isinstance(event, StonesTaken):
        return event.seat, Take(event.count)
    return None


# --------------------------------------------------------- views and results
def over(state: StonesState) -> bool:
    return state.winner is not None or state.cancelled or state.abandoned


def forfeit(decision: Decision[StonesState], outs: Sequence[Event]) -> None:
    for event in outs:  # two seats: the other one, if still in, wins
        decision.emit(event)


def status(state: StonesState) -> str:
    if state.cancelled:
        return STATUS_CANCELLED
    return STATUS_FINISHED if state.winner is not None or state.abandoned else STATUS_PLAYING


def card_seen(state: StonesState, owner: int, seat: int | None) -> int | None:
    """``owner``'s card as ``seat`` sees it: its own, or anyone's once the game is over."""
    return state.cards[owner] if over(state) or seat == owner else None


def view(state: StonesState, seat: int | None) -> dict[str, JSON]:
    body: dict[str, JSON] = {
        "status": status(state),
        "pile": state.pile,
        "active_seats": list(active_seats(state)),
        "players": [
            {"seat": i, "name": name, "card": card_seen(state, i, seat)} for i, name in enumerate(state.players)
        ],
        "winner": state.winner,
        "result": result(state),
    }
    if seat is not None:
        body["me"] = {"seat": seat, "card": state.cards[seat]}
    return body


def redact(state: StonesState, event: Event, seat: int | None) -> dict[str, JSON]:
    if isinstance(event, CardDealt):
        return {"seat": event.seat, "card": card_seen(state, event.seat, seat)}
    return event.to_payload()


def active_seats(state: StonesState) -> tuple[int, ...]:
    return () if over(state) else (state.to_move,)


def result(state: StonesState) -> dict[str, JSON] | None:
    if not over(state) or state.cancelled:
        return None
    return {"winner": state.winner, "cards": list(state.cards)}


def standings(state: StonesState) -> tuple[Standing, ...] | None:
    if not over(state) or state.cancelled:
        return None
    return tuple(
        Standing(seat, rank=1 if seat == state.winner else 2, winner=seat == state.winner)
        for seat in range(len(state.players))
    )


GAME: GameDefinition[StonesState] = GameDefinition(
    type_id="stones",
    title="Stones",
    min_players=2,
    max_players=2,
    rules_version="stones/1",
    board_version="stones/1",
    events=(Started, CardDealt, StonesTaken, *FORFEIT_EVENTS),
    moves=(Move(Take, decide_take), resign_move(forfeit, lambda state: standings_of(state.out))),
    board=lambda: {"pile": PILE, "max_take": MAX_TAKE, "cards": list(CARDS)},
    setup=setup,
    evolve=evolve,
    legal_actions=legal_actions,
    action_of=action_of,
    status=status,
    active_seats=active_seats,
    seat_count=lambda state: len(state.players),
    is_over=over,
    view=view,
    redact=redact,
    result=result,
    standings=standings,
    forfeit=forfeit,
    seat_standings=lambda state: standings_of(state.out),
    turn_number=lambda state: PILE - state.pile,
    time_control=lambda state: state.time_control,
)
