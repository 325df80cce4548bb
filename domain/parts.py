"""The parts a game is declared from: events, actions, configuration,
standings, the :class:`Decision` a move emits into, :class:`Move` and
:class:`Upcast`, and the JSON helpers they share.

:mod:`domain.core` builds :class:`~domain.core.GameDefinition` from these;
the moves every game shares (:mod:`domain.forfeits`) are parts too, so
they import this module, not the core.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from domain.body import dump_fields
from domain.clocks import NO_TIME_CONTROL, TimeControl
from domain.jsonvalue import JSON

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
