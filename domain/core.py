"""The shape every game type shares: events, actions, configuration, and the
game definition (boardgame.io's *setup + moves + player view*, written as
pure functions over an immutable state).

A game type is one :class:`GameDefinition` value: its metadata, its event
types, its :class:`Move` s (an action dataclass whose fields declare the JSON
body, see :mod:`domain.body`, plus the rule deciding it), setup, evolve,
legal actions, view/redact, status, standings and upcasters.  The guards
every game shares (game over, seat range, unknown move) run once in
:meth:`GameDefinition.decide`; a :class:`Decision` folds events into the
state while a move is being decided.

The parts (events, actions, :class:`Decision`, :class:`Move`, ...) are
declared in :mod:`domain.parts`, below the moves every game shares
(:mod:`domain.forfeits`), and named here too.

Nothing in ``domain/`` does I/O, reads a clock or uses global randomness.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic

from domain.body import ENVELOPE_KEYS, build, malformed
from domain.clocks import Clocks, Moment, TimeControl, epoch_of
from domain.custody import CUSTODY_EVENTS, CUSTODY_UPCASTERS, GameScheduled, GameStarted, passing_custody
from domain.errors import GameFinished, IllegalAction, MalformedAction, NotYourTurn
from domain.forfeits import GameCancelled, Resign, SeatTimedOut
from domain.jsonvalue import JSON
from domain.lazy import concat
from domain.parts import (
    STATUS_CANCELLED,
    STATUS_FINISHED,
    STATUS_LAST_ROUND,
    STATUS_PLAYING,
    STATUS_SETUP,
    STATUSES,
    Action,
    Decision,
    Event,
    GameConfig,
    Move,
    S,
    Standing,
    Upcast,
    Upcaster,
    field_names,
    freeze,
    rules_generation,
    to_json,
)

# The parts a definition is made of live in domain.parts (below the moves every game shares, in
# domain.forfeits); they are named here too, where the games and the layers above find them.
__all__ = [
    "GameDefinition",
    "JSON",
    "decode_event",
    "replay",
    "STATUS_CANCELLED",
    "STATUS_FINISHED",
    "STATUS_LAST_ROUND",
    "STATUS_PLAYING",
    "STATUS_SETUP",
    "STATUSES",
    "Action",
    "Decision",
    "Event",
    "GameConfig",
    "Move",
    "S",
    "Standing",
    "Upcast",
    "Upcaster",
    "field_names",
    "freeze",
    "rules_generation",
    "to_json",
]


@dataclass(frozen=True)
class GameDefinition(Generic[S]):
    """One game type, declared as one value (boardgame.io's *setup + moves +
    player view*, as pure functions over an immutable state ``S``).

    Everything else (request schemas, body parsing, listings, tournament
    standings, upcasting of old events) is derived from this value.
    """

    type_id: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    board_version: str
    #: every event type the game records
    events: tuple[type[Event], ...]
    #: every kind of move a seat can send
    moves: tuple[Move[S], ...]
    #: static board data a client needs to render the game
    board: Callable[[], dict[str, JSON]]
    #: the opening events, fully determined by the config; raises InvalidConfig
    setup: Callable[[GameConfig], list[Event]]
    #: apply one recorded event (``None`` before the first); never raises for a recorded event
    evolve: Callable[[S | None, Event], S]
    #: every move the seat may make now (empty when it may not act); see :meth:`sendable`
    legal_actions: Callable[[S, int], Sequence[Action]]
    #: the (seat, action) whose move ``event`` opens, else None (the verifier re-runs moves)
    action_of: Callable[[Event], tuple[int, Action] | None]
    #: one of :data:`STATUSES` (or a game's own final status such as ``stalled``)
    status: Callable[[S], str]
    #: the seats that may act now
    active_seats: Callable[[S], tuple[int, ...]]
    #: the number of seats of the game in ``state``
    seat_count: Callable[[S], int]
    #: whether the game in ``state`` accepts no more actions
    is_over: Callable[[S], bool]
    #: the state as a seat (``None``: a spectator) may see it
    view: Callable[[S, int | None], dict[str, JSON]]
    #: one event's payload as a seat may see it, judged against the current state
    redact: Callable[[S, Event, int | None], dict[str, JSON]]
    #: the final result once finished, else None
    result: Callable[[S], dict[str, JSON] | None]
    #: each seat's standing once finished, else None
    standings: Callable[[S], tuple[Standing, ...] | None]
    #: seats go out together, one ``seat_resigned`` / ``seat_timed_out`` event
    #: each: emits them and what follows (default setup choices, the turn
    #: handed on, the end when one seat or none is left); see :mod:`domain.forfeits`
    forfeit: Callable[[Decision[S], Sequence[Event]], None]
    #: every seat's standing now: ``in``, ``resigned`` or ``timed_out``
    seat_standings: Callable[[S], tuple[str, ...]]
    #: a number that changes whenever a new turn begins (the clocks' turn boundaries)
    turn_number: Callable[[S], int]
    #: the time control the game was created with
    time_control: Callable[[S], TimeControl]
    #: lifts of stored event payloads written under older schema versions
    upcasters: tuple[Upcast, ...] = ()
    #: older rules versions whose games the rules still decide as they were (for verifying old records)
    legacy_rules_versions: tuple[str, ...] = ()
    #: for games on a grid of squares: the legal actions whose first placement is on square
    #: ``(row, col)``, in :attr:`legal_actions` order (None: the game has no squares)
    legal_actions_at: Callable[[S, int, tuple[int, int]], Sequence[Action]] | None = None

    def __post_init__(self) -> None:
        # every game records the custody events (domain.custody) and its state passes through them
        custody = tuple(e for e in CUSTODY_EVENTS if e not in self.events)
        object.__setattr__(self, "events", (*self.events, *custody))
        lifts = tuple(u for u in CUSTODY_UPCASTERS if u not in self.upcasters)  # and their older payloads' lifts
        object.__setattr__(self, "upcasters", (*self.upcasters, *lifts))
        object.__setattr__(self, "evolve", passing_custody(self.evolve))

    @functools.cached_property
    def event_types(self) -> Mapping[str, type[Event]]:
        """Each stored event type name to its class."""
        return {cls.TYPE: cls for cls in self.events}

    @property
    def move_types(self) -> tuple[str, ...]:
        """The ``type`` of every move's action body, in declaration order."""
        return tuple(m.type for m in self.moves)

    def move(self, action_type: str) -> Move[S] | None:
        """The move whose action body has ``type`` ``action_type``."""
        for m in self.moves:
            if m.type == action_type:
                return m
        return None

    def parse_action(self, body: Mapping[str, JSON]) -> Action:
        """Turn a JSON action body into an Action; raises MalformedAction."""
        if not isinstance(body, Mapping):
            raise malformed("an action must be a JSON object")
        kind = body.get("type")
        if not isinstance(kind, str):
            raise malformed("missing or non-string field 'type'")
        m = self.move(kind)
        if m is None:
            raise malformed(f"unknown action type {kind[:40]!r} (one of {', '.join(sorted(self.move_types))})")
        return build(m.action, body, kind, ENVELOPE_KEYS)

    def decide(self, state: S, seat: int, action: Action) -> list[Event]:
        """The events ``action`` by ``seat`` produces; raises a DomainError naming
        the broken rule.  The guards every game shares run first: the game is
        not over, the seat exists, the action is one of this game's moves."""
        if self.is_over(state):
            raise GameFinished()
        if not 0 <= seat < self.seat_count(state):
            raise NotYourTurn(f"seat {seat} is not a seat of this game")
        m = self.move(action.TYPE)
        if m is None or not isinstance(action, m.action):
            raise MalformedAction("malformed_action", f"{type(action).__name__} is not a {self.type_id} action")
        decision = Decision(state, self.evolve)
        m.decide(decision, seat, action)
        return decision.events


    def sendable(self, state: S, seat: int) -> Sequence[Action]:
        """Every action ``seat`` may send now: its legal moves, then
        ``resign`` while it is still in and the game is not over (a lazy
        list of moves stays lazy: a first page must not wait for all of them)."""
        if self.is_over(state) or not 0 <= seat < self.seat_count(state) or self.seat_standings(state)[seat] != "in":
            return []
        legal = self.legal_actions(state, seat)
        return concat(legal, (Resign(),))  # a lazy list of moves stays lazy

    def sendable_at(self, state: S, seat: int, square: tuple[int, int]) -> Sequence[Action]:
        """The actions of :meth:`sendable` whose first placement is on
        ``square`` (``resign`` has none); ValueError for a game without squares."""
        if self.legal_actions_at is None:
            raise ValueError(f"{self.type_id} has no squares")
        if self.is_over(state) or not 0 <= seat < self.seat_count(state) or self.seat_standings(state)[seat] != "in":
            return []
        return self.legal_actions_at(state, seat, square)

    def moment(self, state: S, at: float) -> Moment:
        """What the clocks need to know of ``state``, reached at time ``at``."""
        over = self.is_over(state)
        out = tuple(seat for seat, standing in enumerate(self.seat_standings(state)) if standing != "in")
        return Moment(at, () if over else tuple(self.active_seats(state)), self.turn_number(state),
                      self.status(state) == STATUS_SETUP, over, out)

    def clocks_after(self, clocks: Clocks | None, state: S, event: Event, at: float) -> Clocks:
        """The clocks once ``event``, which led to ``state``, was recorded at
        ``at`` (``clocks``: before it; None before the first event).  They
        start with the opening events; a ``game_scheduled`` makes them wait,
        and its ``game_started`` starts them afresh (:mod:`domain.clocks`)."""
        if isinstance(event, GameScheduled):
            return Clocks.waiting(self.time_control(state), self.seat_count(state), at, epoch_of(event.starts_at))
        moment = self.moment(state, at)
        if clocks is None or (isinstance(event, GameStarted) and clocks.starts_at is not None):
            return Clocks.start(self.time_control(state), self.seat_count(state), moment)
        return clocks.advance(moment)

    def time_out(self, state: S, seats: Sequence[int]) -> list[Event]:
        """The events of ``seats`` running out of time together (the server
        appends them once their deadline, the same for all, has passed; a
        simultaneous setup step can have several seats miss one deadline);
        GameFinished once over, IllegalAction for a seat that is already out."""
        if self.is_over(state):
            raise GameFinished()
        if not seats or len(set(seats)) != len(seats):
            raise IllegalAction("bad_timeout", "a timeout names one or more different seats")
        for seat in seats:
            if not 0 <= seat < self.seat_count(state):
                raise NotYourTurn(f"seat {seat} is not a seat of this game")
            if self.seat_standings(state)[seat] != "in":
                raise IllegalAction("already_out", f"seat {seat} is already out; it cannot time out")
        decision = Decision(state, self.evolve)
        self.forfeit(decision, [SeatTimedOut(seat) for seat in sorted(seats)])
        return decision.events

    def cancel(self, state: S) -> list[Event]:
        """The event of a host cancelling the game; GameFinished once over."""
        if self.is_over(state):
            raise GameFinished("the game is over; it can no longer be cancelled")
        return [GameCancelled()]


def replay(game: GameDefinition[S], events: Sequence[Event], state: S | None = None) -> S:
    """Fold ``events`` over ``state`` with ``game.evolve``."""
    for event in events:
        state = game.evolve(state, event)
    if state is None:
        raise ValueError("cannot replay an empty event list without a starting state")
    return state


def decode_event(game: GameDefinition[Any], type_name: str, payload: Mapping[str, JSON]) -> Event:
    """Rebuild a domain event of ``game`` from its stored type and payload."""
    try:
        cls = game.event_types[type_name]
    except KeyError as e:
        raise ValueError(f"unknown event type {type_name!r} for game {game.type_id!r}") from e
    return cls.from_payload(payload)
