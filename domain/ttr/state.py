"""The game state: frozen records, changed only by :mod:`domain.ttr.evolve`.

Conventions: the top of the deck and of the ticket deck is index 0; the
face-up row always has five slots, an empty slot holds ``None``; claims are
kept per route index (``None`` = unclaimed); souvenir counts in the box are
kept per symbol in board order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from domain.clocks import NO_TIME_CONTROL, TimeControl
from domain.core import STATUS_CANCELLED, STATUS_FINISHED, STATUS_LAST_ROUND, STATUS_PLAYING, STATUS_SETUP
from domain.rng import Rng
from domain.ttr.cards import FERRY_INDEX, Hand

ROW_SIZE = 5
#: souvenir tokens per symbol in the box (7 symbols x 3 = 21 tokens)
TOKENS_PER_SYMBOL = 3

#: phases of the game (finer than the status)
PHASE_SETUP = "setup"
PHASE_TURN_START = "turn_start"
PHASE_SECOND_DRAW = "second_draw"
PHASE_CHOOSING_TICKETS = "choosing_tickets"
PHASE_FINISHED = "finished"

#: every rules version, oldest first; a game's generation (:attr:`TtrState.rules`)
#: is its version's place here, counted from 1
RULES_VERSIONS = ("ttr-sf/1", "ttr-sf/2", "ttr-sf/3", "ttr-sf/4")
#: the first generation recording a turn's end in the move's last event
TURN_END_IN_MOVE = 3
#: the first generation resetting a three-ferry row for as long as a reset can still give a
#: legal row (the rulebook's "no limit"; earlier ones stopped after len(deck) + len(discard) resets)
RESETS_WHILE_THEY_CAN_HELP = 4

#: why a game ended
END_FINAL_ROUND = "final_round"
END_STALEMATE = "stalemate"
END_FORFEIT = "forfeit"
END_CANCELLED = "cancelled"

R = TypeVar("R", "PlayerState", "TtrState")


def evolved(record: R, **changes: Any) -> R:
    """A copy of the frozen ``record`` with ``changes`` applied.

    The fast path of :func:`dataclasses.replace` for the two records that
    change on every event: it copies the instance dict instead of running
    ``__init__`` (about five times faster, which keeps a full replay within
    a few milliseconds).  Only field names are accepted.
    """
    assert changes.keys() <= record.__dataclass_fields__.keys(), f"unknown fields {set(changes)}"
    new = object.__new__(type(record))
    fields = new.__dict__
    fields.update(record.__dict__)
    fields.update(changes)
    return new


@dataclass(frozen=True)
class PlayerState:
    """One seat: cars, route score, secret hand and tickets, public souvenirs."""

    name: str
    cars: int
    score: int
    hand: Hand
    tickets: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()
    souvenirs: tuple[str, ...] = ()
    routes: tuple[str, ...] = ()

    @property
    def hand_count(self) -> int:
        """Number of cards held."""
        return sum(self.hand)

    @property
    def ferries(self) -> int:
        """Number of ferry cards held."""
        return self.hand[FERRY_INDEX]


@dataclass(frozen=True, slots=True)
class SouvenirStack:
    """A stack of ``count`` tokens of ``symbol`` at ``location`` (may reach 0)."""

    location: str
    symbol: str
    count: int


@dataclass(frozen=True)
class TtrState:
    """Everything about one game of Ticket to Ride: San Francisco."""

    players: tuple[PlayerState, ...]
    start_seat: int
    rng: Rng
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    face_up: tuple[str | None, ...]
    ticket_deck: tuple[str, ...]
    claimed: tuple[int | None, ...]
    stacks: tuple[SouvenirStack, ...]
    set_aside: tuple[str, ...]
    set_aside_size: int
    placers: tuple[int, ...]
    box: tuple[int, ...]
    phase: str = PHASE_SETUP
    turn: int = 0
    final_turns_left: int | None = None
    passes: int = 0
    end_reason: str | None = None
    #: per seat: None while in, else ``resigned`` / ``timed_out`` (see domain.forfeits)
    out: tuple[str | None, ...] = ()
    #: turns begun since play started (the clocks' turn boundaries)
    turns: int = 0
    time_control: TimeControl = NO_TIME_CONTROL
    #: the generation of the rules the game was created under (N: ``ttr-sf/N``)
    rules: int = len(RULES_VERSIONS)

    def __post_init__(self) -> None:
        if not self.out:  # a state built without forfeits in mind: every seat is in
            object.__setattr__(self, "out", (None,) * len(self.players))

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def status(self) -> str:
        """``setup``, ``playing``, ``last_round``, ``finished`` or ``cancelled``."""
        if self.end_reason == END_CANCELLED:
            return STATUS_CANCELLED
        if self.phase == PHASE_SETUP:
            return STATUS_SETUP
        if self.phase == PHASE_FINISHED:
            return STATUS_FINISHED
        return STATUS_LAST_ROUND if self.final_turns_left is not None else STATUS_PLAYING

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.phase == PHASE_FINISHED

    @property
    def seats_in(self) -> tuple[int, ...]:
        """The seats that have not resigned or timed out."""
        return tuple(seat for seat, o in enumerate(self.out) if o is None)

    @property
    def next_placer(self) -> int | None:
        """The seat due to place a set-aside souvenir stack, if any."""
        return self.placers[0] if self.placers else None

    def with_player(self, seat: int, player: PlayerState) -> tuple[PlayerState, ...]:
        """The players tuple with ``seat`` replaced by ``player``."""
        return self.players[:seat] + (player,) + self.players[seat + 1 :]

    def stack_at(self, location: str) -> SouvenirStack | None:
        """The souvenir stack at ``location`` (even if emptied), or None."""
        for stack in self.stacks:
            if stack.location == location:
                return stack
        return None

    def setup_done(self) -> bool:
        """Whether every setup choice (tickets, placements) has been made."""
        return not self.placers and all(not p.pending for p in self.players)

    def active_seats(self) -> tuple[int, ...]:
        """The seats that may act now."""
        if self.phase == PHASE_SETUP:
            seats = {i for i, p in enumerate(self.players) if p.pending}
            if self.placers:
                seats.add(self.placers[0])
            return tuple(sorted(seats))
        if self.phase == PHASE_FINISHED:
            return ()
        return (self.turn,)
