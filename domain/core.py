"""The shape every game type shares: events, actions, configuration, and the
game-definition protocol (boardgame.io's *setup + moves + player view*,
written as pure functions).

A game type is one object implementing :class:`GameDefinition`:

* ``setup(config) -> events``: the opening events, fully determined by the
  config (players, start seat, seed);
* ``evolve(state, event) -> state``: apply one event (``state`` is ``None``
  for the first event); never raises for a recorded event;
* ``decide(state, seat, action) -> events``: the events an action produces,
  or a :class:`~domain.errors.DomainError` explaining the refusal;
* ``legal_actions(state, seat)``: every action ``decide`` would accept now;
* ``view(state, seat)``: a JSON-ready dict with other seats' secrets removed;
* ``redact(state, event, seat)``: one event's payload as ``seat`` may see it.

Nothing in ``domain/`` does I/O, reads a clock or uses global randomness.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

JSON = Any
S = TypeVar("S")

STATUS_SETUP = "setup"
STATUS_PLAYING = "playing"
STATUS_LAST_ROUND = "last_round"
STATUS_FINISHED = "finished"
STATUSES = (STATUS_SETUP, STATUS_PLAYING, STATUS_LAST_ROUND, STATUS_FINISHED)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_SCALARS = (str, int, float, bool, type(None))


def field_names(cls: type) -> tuple[str, ...]:
    """The field names of dataclass ``cls``, in order (looked up once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELD_NAMES[cls] = names
    return names


def to_json(value: Any) -> JSON:
    """Convert a (possibly nested) dataclass / tuple value into plain JSON data."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_json(getattr(value, name)) for name in field_names(type(value))}
    return value


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

    Subclasses set ``TYPE`` (the ``type`` field of the JSON body) and implement
    :meth:`to_body`, which returns a ready-to-send JSON body.
    """

    TYPE: ClassVar[str] = ""

    def to_body(self) -> dict[str, JSON]:
        """The JSON action body a client would send for this action."""
        body: dict[str, JSON] = {"type": self.TYPE}
        for name in field_names(type(self)):
            value = getattr(self, name)
            if value is not None:
                body[name] = to_json(value)
        return body


@dataclass(frozen=True)
class GameConfig:
    """Everything needed to set a game up: player names, first seat, seed."""

    players: tuple[str, ...]
    seed: str
    start_seat: int = 0
    options: Mapping[str, JSON] = field(default_factory=dict)


@runtime_checkable
class GameDefinition(Protocol[S]):
    """One game type: its metadata, static board and pure rule functions."""

    type_id: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    board_version: str
    event_types: Mapping[str, type[Event]]

    def board(self) -> dict[str, JSON]:
        """Static board data a client needs to render the game."""
        ...

    def setup(self, config: GameConfig) -> list[Event]:
        """The opening events of a game; raises InvalidConfig on a bad config."""
        ...

    def evolve(self, state: S | None, event: Event) -> S:
        """Apply one event to the state (``None`` before the first event)."""
        ...

    def parse_action(self, body: Mapping[str, JSON]) -> Action:
        """Turn a JSON action body into an Action; raises MalformedAction."""
        ...

    def decide(self, state: S, seat: int, action: Action) -> list[Event]:
        """The events ``action`` by ``seat`` produces; raises DomainError if refused."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action ``seat`` may send now (empty when it may not act)."""
        ...

    def action_of(self, event: Event) -> tuple[int, Action] | None:
        """The (seat, action) that produced ``event`` if it is the first event
        of a move, else None.  Used by the verifier to re-run the moves."""
        ...

    def status(self, state: S) -> str:
        """One of ``setup``, ``playing``, ``last_round``, ``finished``."""
        ...

    def active_seats(self, state: S) -> tuple[int, ...]:
        """The seats that may act now."""
        ...

    def view(self, state: S, seat: int | None) -> dict[str, JSON]:
        """The state as ``seat`` (or a spectator, ``None``) may see it."""
        ...

    def redact(self, state: S, event: Event, seat: int | None) -> dict[str, JSON]:
        """``event``'s payload with what ``seat`` may not see removed, judged
        against the current ``state`` (secrets become public as the game goes)."""
        ...

    def result(self, state: S) -> dict[str, JSON] | None:
        """The final result once finished, else None."""
        ...


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
