"""The game state: frozen values rebuilt from events by :mod:`domain.cablecar.evolve`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from domain.cablecar.board import Board
from domain.clocks import NO_TIME_CONTROL, TimeControl
from domain.forfeits import next_in
from domain.rng import Rng

#: One space of a ride: a square index (0-143) or a terminal's name.
Space = int | str

#: every rules version, oldest first; a game's generation (:attr:`CableCarState.rules`)
#: is its version's place here, counted from 1
RULES_VERSIONS = ("cable-car/1", "cable-car/2", "cable-car/3", "cable-car/4")
#: the first generation recording a turn's end in the move's last event
TURN_END_IN_MOVE = 3
#: the first generation following the rulebook on two points: riders' open hands are drawn
#: from only once the pile is empty (:mod:`domain.cablecar.drawing`), and a seat whose network
#: is complete at the start of its turn must start its ride (:func:`domain.cablecar.turns.ride_due`)
RULEBOOK_DRAW_AND_RIDE = 4


@dataclass(frozen=True, slots=True)
class Ride:
    """A tram's inaugural ride along a fixed path.

    ``spaces`` is the whole path: ``spaces[0]`` is the start terminal,
    ``spaces[-1]`` the destination terminal, and in between each square the
    tram drives through, in order, plus the name of any other line's terminal
    loop it drives over (one space each).  ``position`` indexes ``spaces``.
    """

    origin: str
    destination: str
    spaces: tuple[Space, ...]
    position: int = 0

    @property
    def current(self) -> Space:
        """The space the tram stands on."""
        return self.spaces[self.position]


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One seat: its secret cards, its open hand and its tram."""

    name: str
    line: str
    route_card: str
    route: tuple[str, ...]
    hand: tuple[str, ...]
    ride: Ride | None = None
    last_roll: str | None = None

    @property
    def riding(self) -> bool:
        """Whether this player has started its ride (and lays no more tiles)."""
        return self.ride is not None


@dataclass(frozen=True, slots=True)
class CableCarState:
    """Everything about one game at one moment."""

    players: tuple[PlayerState, ...]
    start_seat: int
    board: Board
    pile: tuple[str, ...]
    rng: Rng
    turn: int
    turn_number: int = 1
    passes: int = 0
    #: the seat to play has laid and is choosing what to draw (``draw_tile``)
    drawing: bool = False
    finished: bool = False
    winners: tuple[int, ...] = ()
    end_reason: str | None = None
    #: per seat: None while in, else ``resigned`` / ``timed_out`` (see domain.forfeits)
    out: tuple[str | None, ...] = ()
    time_control: TimeControl = NO_TIME_CONTROL
    #: the generation of the rules the game was created under (N: ``cable-car/N``;
    #: the board's ``rules`` is the placement rules' own generation)
    rules: int = len(RULES_VERSIONS)

    def __post_init__(self) -> None:
        if not self.out:  # a state built without forfeits in mind: every seat is in
            object.__setattr__(self, "out", (None,) * len(self.players))

    @property
    def player_count(self) -> int:
        """How many seats play."""
        return len(self.players)

    def player(self, seat: int) -> PlayerState:
        """The state of ``seat``."""
        return self.players[seat]

    def with_player(self, seat: int, player: PlayerState) -> CableCarState:
        """The state with ``seat`` replaced by ``player``."""
        players = list(self.players)
        players[seat] = player
        return dataclasses.replace(self, players=tuple(players))

    def next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` in clockwise order that is still in."""
        return next_in(self.out, seat)

    @property
    def seats_in(self) -> tuple[int, ...]:
        """The seats that have not resigned or timed out."""
        return tuple(seat for seat, o in enumerate(self.out) if o is None)

    def revealed(self, seat: int) -> bool:
        """Whether ``seat``'s line and route cards are public."""
        return self.finished or self.players[seat].riding
