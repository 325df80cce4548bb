"""The records every store reads and writes (events, games, appends) and the
errors every store raises.

Backends (``events.sqlite``, ``events.postgres``, sharing their SQL from
``events.sql``) translate every driver exception into the errors below
(``raise ... from e``); a call that could never succeed (an empty batch, a
payload that is not plain JSON, a page size outside 1..10000) raises
``ValueError`` before touching the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import ClassVar

from domain.core import JSON


class StoreError(Exception):
    """Base of every error raised by an event store."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or failed; nothing was written (unless it
    is the :class:`OutcomeUnknown` kind)."""


class OutcomeUnknown(StoreUnavailable):
    """The link to the database broke after a write was sent: it may have
    committed or not.  Sending the same write again with the same idempotency
    key learns which (the stored outcome is answered, or it is written now)."""


class StaleVersion(StoreError):
    """Another writer appended first: ``expected`` is not the game's version."""

    def __init__(self, game_id: str, expected: int, current: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, current is {current}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class OutsideDeadline(StaleVersion):
    """By the database's clock the append came after a deadline running at
    ``expected`` (``reason`` 'late': the timeout wins) or before the deadline
    it acts on ('early'); nothing was written.  A StaleVersion, so callers
    re-read the game (whose timeout is then due) and decide again."""

    def __init__(self, game_id: str, expected: int, reason: str) -> None:
        super().__init__(game_id, expected, expected)
        self.args = (f"game {game_id}: refused at version {expected}: {reason} by the database's clock",)
        self.reason = reason


class GameNotFound(StoreError):
    """No game with this id exists in the store."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class GuardFailed(StoreError):
    """An append's :class:`MetadataGuard` no longer holds; nothing was written."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id}: the append's metadata guard does not hold")
        self.game_id = game_id


class GameExists(StoreError):
    """A game with this id already exists."""


class IntegrityError(StoreError):
    """Stored data violates an invariant (e.g. the database refused a write)."""


class DamagedEvent(IntegrityError):
    """A stored event row that cannot be read back (written past the append
    path, or corrupted): ``seq`` names it."""

    def __init__(self, game_id: str, seq: int, reason: str) -> None:
        super().__init__(f"event seq {seq} of game {game_id} cannot be read: {reason}")
        self.game_id = game_id
        self.seq = seq
        self.reason = reason


class InvalidCursor(StoreError, ValueError):
    """A ``list_games`` cursor that this store did not hand out."""


@dataclass(frozen=True)
class NewEvent:
    """An event to append: what the domain produced plus who acted."""

    type: str
    payload: Mapping[str, JSON]
    schema_version: int = 1
    seat: int | None = None


#: A game to create: ``(game_id, game_type, metadata, opening events, status)``.
NewGame = tuple[str, str, Mapping[str, JSON], Sequence[NewEvent], str]


@dataclass(frozen=True)
class StoredEvent:
    """The envelope of a stored event (see ``events.integrity.envelope`` for hashing)."""

    game_id: str
    seq: int
    position: int
    type: str
    schema_version: int
    payload: Mapping[str, JSON]
    recorded_at: str
    seat: int | None
    idempotency_key: str | None
    prev_hash: str
    hash: str
    #: Ed25519 signature of ``hash`` and the id of its key (:mod:`events.integrity.signing`);
    #: None for an event written before the store signed
    signature: str | None = None
    key_id: str | None = None


@dataclass(frozen=True)
class GameRecord:
    """The mutable per-game metadata row."""

    game_id: str
    game_type: str
    status: str
    version: int
    created_at: str
    updated_at: str
    metadata: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class MetadataGuard:
    """A condition an append checks atomically with its write: the game's
    metadata holds the string ``value`` at ``path`` (object keys and list
    indexes), e.g. ``(("seat_token_hashes", 2), "ab12...")``: the acting
    seat's token has not been rotated since the caller looked."""

    path: tuple[str | int, ...]
    value: str

    def __post_init__(self) -> None:
        if not self.path:
            raise ValueError("a metadata guard needs a path")
        for step in self.path:
            if isinstance(step, bool) or not isinstance(step, int | str):
                raise ValueError(f"a guard path holds keys and list indexes, not {step!r}")
            if isinstance(step, int) and step < 0:
                raise ValueError(f"a guard path's list index cannot be negative: {step}")
            if isinstance(step, str) and not (step and step.replace("_", "").isalnum() and step.isascii()):
                raise ValueError(f"a guard path's key must be letters, digits and '_': {step!r}")


@dataclass(frozen=True)
class TokenChange:
    """What an append that records a ``seat_token_rotated`` event changes with
    it, in the same write: ``seat``'s stored token hash becomes ``token_hash``.
    It is the only change of a game's metadata after its creation, and the
    database takes it only with that event (PostgreSQL: migration 0040)."""

    seat: int
    token_hash: str

    #: the event type that must carry it, alone
    EVENT: ClassVar[str] = "seat_token_rotated"

    def check(self, events: Sequence[NewEvent]) -> None:
        """ValueError unless ``events`` is one ``seat_token_rotated`` of this seat, by no seat."""
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise ValueError(f"a token change names a seat, not {self.seat!r}")
        if not isinstance(self.token_hash, str) or not self.token_hash.isascii() or len(self.token_hash) > 200:
            raise ValueError("a token hash is a short ASCII string")
        if len(events) != 1 or events[0].type != self.EVENT or events[0].seat is not None \
                or events[0].payload.get("seat") != self.seat:
            raise ValueError(f"a token change is written with one {self.EVENT} event of its seat, by no seat")


@dataclass(frozen=True)
class AppendOptions:
    """What an append may carry beside its events, each optional: the
    ``idempotency_key`` (with the ``request_hash`` stored with it) that makes a
    retry answer the first append; the game's new ``status``; a ``guard`` that
    must hold in the game's metadata; the window ``not_before`` .. ``not_after``
    the database's clock must fall in (a deadline); a seat's new ``token`` hash
    written with its ``seat_token_rotated`` event."""

    idempotency_key: str | None = None
    request_hash: str | None = None
    status: str | None = None
    guard: MetadataGuard | None = None
    not_before: datetime | None = None
    not_after: datetime | None = None
    token: TokenChange | None = None


#: an append with none of the options
PLAIN = AppendOptions()


@dataclass(frozen=True)
class AppendResult:
    """What ``append`` wrote, or (``replayed=True``) what an earlier append with
    the same idempotency key wrote; ``request_hash`` is the one stored with it."""

    events: tuple[StoredEvent, ...]
    replayed: bool = False
    request_hash: str | None = None


@dataclass(frozen=True)
class ChainReport:
    """Result of :meth:`EventStore.verify_chain`."""

    ok: bool
    checked: int
    problems: tuple[str, ...] = ()
    first_bad_seq: int | None = None


@dataclass(frozen=True)
class GamePage:
    """One page of the game listing; ``next_cursor`` is None on the last page."""

    games: tuple[GameRecord, ...]
    next_cursor: str | None
