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

Nothing in ``domain/`` does I/O, reads a clock or uses global randomness.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from domain.body import ENVELOPE_KEYS, build, dump_fields, malformed
from domain.clocks import NO_TIME_CONTROL, Moment, TimeControl
from domain.errors import GameFinished, IllegalAction, MalformedAction, NotYourTurn
from domain.lazy import concat

#: a JSON value (the one alias of the project)
JSON = Any
S = TypeVar("S")

STATUS_SETUP = "setup"
STATUS_PLAYING = "playing"
STATUS_LAST_ROUND = "last_round"
STATUS_FINISHED = "finished"
#: a host ended the game before its end: no result (see :mod:`domain.forfeits`)
STATUS_CANCELLED = "cancelled"
STATUSES = (STATUS_SETUP, STATUS_PLAYING, STATUS_LAST_ROUND, STATUS_FINISHED, STATUS_CANCELLED)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_SCALARS = (str, int, float, bool, type(None))


def field_names(cls: type) -> tuple[str, ...]:
    """The field names of dataclass ``cls``, in order (looked up once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELD_NAMES[cls] = names
    return names


#: the exact types the fast path of :func:`to_json` passes through (subclasses take the full path)
_SCALAR_TYPES = frozenset(_SCALARS)


def to_json(value: Any) -> JSON:
    """Convert a (possibly nested) dataclass / tuple value into plain JSON data."""
    kind = type(value)
    # every stored and shown event passes here: exact-type checks first
    if kind in _SCALAR_TYPES:
        return value
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALAR_TYPES else to_json(v) for v in value]
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_json(getattr(value, name)) for name in field_names(type(value))}
    return value


def rules_generation(versions: Sequence[str], version: str) -> int:
    """The generation (1, 2, ...) of rules ``version`` among a game's
    ``versions``, oldest first; the newest for a version this code does not
    know (setup refuses those, and evolve never raises)."""
    return versions.index(version) + 1 if version in versions else len(versions)


def freeze(value: JSON) -> Any:
    """Turn JSON lists into tuples (recursively) so values fit frozen dataclasses."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, Mapping):
        return {k: freeze(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Event:
    """Base of every domain event.

    Subclasses are frozen dataclasses that set ``TYPE`` (the stored event type
    name, unique within a game type) and ``SCHEMA_VERSION``.  Fields hold JSON
    values only (str, int, bool, None, tuples, dicts of those).
    """

    TYPE: ClassVar[str] = ""
    SCHEMA_VERSION: ClassVar[int] = 1
    #: the payload fields the game's ``redact`` may show as null to a caller who may not
    #: see them: ``name`` (the field) or ``name[]`` (entries of a per-seat list: other seats')
    REDACTED: ClassVar[tuple[str, ...]] = ()

    def to_payload(self) -> dict[str, JSON]:
        """The JSON payload stored for this event."""
        data = to_json(self)
        assert isinstance(data, dict)
        return data

    @classmethod
    def from_payload(cls, payload: Mapping[str, JSON]) -> Self:
        """Rebuild the event from its stored payload (current schema version)."""
        names = field_names(cls)
        return cls(**{k: freeze(v) for k, v in payload.items() if k in names})


@dataclass(frozen=True)
class Action:
    """Base of every action a seat can send.

    Subclasses are frozen dataclasses that set ``TYPE`` (the ``type`` field of
    the JSON body) and declare every field with :func:`domain.body.body_field`;
    :meth:`to_body` returns the ready-to-send JSON body.
    """

    TYPE: ClassVar[str] = ""

    def to_body(self) -> dict[str, JSON]:
        """The JSON action body a client would send for this action."""
        return {"type": self.TYPE, **dump_fields(self)}


@dataclass(frozen=True)
class GameConfig:
    """Everything needed to set a game up: player names, first seat, seed,
    and the time control (recorded in the setup event, so replays and the
    audit know it).

    ``rules_version`` None means the game's current rules; the verifier names
    the version a record was made under, which may be one the game still
    decides for old records (:attr:`GameDefinition.legacy_rules_versions`).
    """

    players: tuple[str, ...]
    seed: str
    start_seat: int = 0
    time_control: TimeControl = NO_TIME_CONTROL
    rules_version: str | None = None


@dataclass(frozen=True)
class Standing:
    """One seat's place once a game is finished (what tournaments rank by).

    ``rank`` is 1 for the best; seats that tie share a rank.  ``score`` and
    ``completed_tickets`` are None where the game has no such number.
    """

    seat: int
    rank: int | None
    winner: bool
    score: int | None = None
    completed_tickets: int | None = None


class Decision(Generic[S]):
    """The events of one decision so far and the state they lead to.

    Rules emit events one at a time; each is applied at once with the game's
    ``evolve``, so later rules see the updated state and the recorded events
    replay to exactly the state the decision ended in.
    """

    __slots__ = ("_before", "_evolve", "events", "state")

    def __init__(self, state: S, evolve: Callable[[S | None, Event], S]) -> None:
        self.state = state
        self._evolve = evolve
        self.events: list[Event] = []
        # the state before the last event, so that event can be amended without a replay
        self._before = state

    def emit(self, *events: Event) -> None:
        """Record ``events`` and apply them to :attr:`state`."""
        for event in events:
            self.events.append(event)
            self._before = self.state
            self.state = self._evolve(self.state, event)

    def amend_last(self, event: Event) -> None:
        """Replace the last emitted event by ``event`` (the same fact with more
        said, e.g. that it ended the turn) and apply it to the state before
        the old one.  ValueError when nothing was emitted yet."""
        if not self.events:
            raise ValueError("no event to amend: nothing was emitted in this decision")
        self.events[-1] = event
        self.state = self._evolve(self._before, event)


@dataclass(frozen=True)
class Move(Generic[S]):
    """One kind of move: the action dataclass a seat sends and the rule that
    decides it (emitting its events into a :class:`Decision`, or raising a
    :class:`~domain.errors.DomainError`).  The action's body shape is declared
    on its fields (:mod:`domain.body`)."""

    action: type[Action]
    decide: Callable[[Decision[S], int, Any], None]

    @property
    def type(self) -> str:
        """The ``type`` of the action body."""
        return self.action.TYPE


#: an upcaster: a stored payload -> the same payload one schema version newer
Upcaster = Callable[[Mapping[str, JSON]], dict[str, JSON]]


@dataclass(frozen=True)
class Upcast:
    """Lifts stored payloads of ``event_type`` from ``from_version`` to the next version."""

    event_type: str
    from_version: int
    lift: Upcaster
    #: how the older payload differs, field by field: ``(name, annotation)``, the annotation
    #: of the field's value then, or None for a field it did not have (the event catalogue
    #: derives each older version's schema from the newer one with these)
    older: tuple[tuple[str, Any], ...] = ()


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
        from domain.forfeits import Resign  # imports this module

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
        from domain.forfeits import SeatTimedOut  # imports this module

        decision = Decision(state, self.evolve)
        self.forfeit(decision, [SeatTimedOut(seat) for seat in sorted(seats)])
        return decision.events

    def cancel(self, state: S) -> list[Event]:
        """The event of a host cancelling the game; GameFinished once over."""
        if self.is_over(state):
            raise GameFinished("the game is over; it can no longer be cancelled")
        from domain.forfeits import GameCancelled  # imports this module

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
