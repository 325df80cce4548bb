"""Column lists, row -> record mappers and the argument checks done before a
transaction starts, for every table both backends read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import JSON
from events.encoding.canonical import canonical_json
from events.integrity.envelope import GENESIS_HASH, stored_event
from events.integrity.sealing import SealedEvent, seal
from events.integrity.signing import Signer
from events.recorders.deliveries import DeliveryAttempt, DeliveryRecord
from events.recorders.tournaments import BatchRecord, OrganiserRecord, WebhookRecord
from events.records import (
    DamagedEvent,
    GameExists,
    GameRecord,
    IntegrityError,
    NewEvent,
    NewGame,
    StoredEvent,
    TokenChange,
)
from events.sql.dialect import Dialect

#: Column order of every events SELECT (see :func:`event_from_row`).
EVENT_COLUMNS = (
    "game_id, seq, position, type, schema_version, payload, recorded_at, seat, idempotency_key, prev_hash, hash,"
    " signature, key_id"
)
#: Column order of every games SELECT (see :func:`game_from_row`).
GAME_COLUMNS = "game_id, game_type, status, version, created_at, updated_at, metadata"
ORGANISER_COLUMNS = "organiser_id, name, token_hash, created_at"
BATCH_COLUMNS = "batch_id, organiser_id, name, game_type, tables, created_at, ref, starts_at"
WEBHOOK_COLUMNS = (
    "webhook_id, organiser_id, url, batch_id, events, secret, from_position, active, created_at, from_tree_size"
)
DELIVERY_COLUMNS = (
    "delivery_id, webhook_id, game_id, event, body, state, attempts, created_at, next_attempt_at,"
    " delivered_at, last_status_code, last_error"
)
ATTEMPT_COLUMNS = "delivery_id, attempt, attempted_at, status_code, error, duration_ms"

#: Largest page ``list_games`` and ``read_all`` hand out.
MAX_PAGE = 10_000


def event_from_row(row: Sequence[Any], payload: Mapping[str, JSON]) -> StoredEvent:
    """A :class:`StoredEvent` from a row in :data:`EVENT_COLUMNS` order
    (``payload`` already decoded, since drivers differ there)."""
    return stored_event(
        row[0], row[1], row[2], row[3], row[4], payload, row[6], row[7], row[8], row[9], row[10], row[11], row[12]
    )


def events_from_rows(rows: Sequence[Sequence[Any]], dialect: Dialect) -> list[StoredEvent]:
    """The envelopes of rows in :data:`EVENT_COLUMNS` order."""
    return [event_from_row(row, _payload(row, dialect)) for row in rows]


def _payload(row: Sequence[Any], dialect: Dialect) -> Mapping[str, JSON]:
    """An event row's payload object (DamagedEvent naming the row if it is not one)."""
    try:
        payload = dialect.json_value(row[5])
    except IntegrityError as e:
        raise DamagedEvent(row[0], row[1], str(e)) from e
    if not isinstance(payload, dict):
        raise DamagedEvent(row[0], row[1], "its payload is not a JSON object")
    return payload


def game_from_row(row: Sequence[Any], dialect: Dialect) -> GameRecord:
    """A :class:`GameRecord` from a row in :data:`GAME_COLUMNS` order."""
    return GameRecord(
        game_id=row[0],
        game_type=row[1],
        status=row[2],
        version=row[3],
        created_at=dialect.time_text(row[4]),
        updated_at=dialect.time_text(row[5]),
        metadata=dialect.json_value(row[6]),
    )


def organiser_from_row(row: Sequence[Any], dialect: Dialect) -> OrganiserRecord:
    """An :class:`OrganiserRecord` from a row in :data:`ORGANISER_COLUMNS` order."""
    return OrganiserRecord(row[0], row[1], row[2], dialect.time_text(row[3]))


def batch_from_row(row: Sequence[Any], dialect: Dialect) -> BatchRecord:
    """A :class:`BatchRecord` from a row in :data:`BATCH_COLUMNS` order."""
    return BatchRecord(row[0], row[1], row[2], row[3], int(row[4]), dialect.time_text(row[5]), row[6],
                       dialect.optional_time_text(row[7]))


def webhook_from_row(row: Sequence[Any], dialect: Dialect) -> WebhookRecord:
    """A :class:`WebhookRecord` from a row in :data:`WEBHOOK_COLUMNS` order."""
    return WebhookRecord(
        webhook_id=row[0],
        organiser_id=row[1],
        url=row[2],
        batch_id=row[3],
        events=dialect.list_value(row[4]),
        secret=row[5],
        from_position=int(row[6]),
        active=bool(row[7]),
        created_at=dialect.time_text(row[8]),
        from_tree_size=int(row[9]),
    )


def attempt_from_row(row: Sequence[Any], dialect: Dialect) -> DeliveryAttempt:
    """A :class:`DeliveryAttempt` from a row in :data:`ATTEMPT_COLUMNS` order."""
    return DeliveryAttempt(int(row[1]), dialect.time_text(row[2]), row[3], row[4], int(row[5]))


def delivery_from_row(
    row: Sequence[Any], dialect: Dialect, history: tuple[DeliveryAttempt, ...]
) -> DeliveryRecord:
    """A :class:`DeliveryRecord` from a row in :data:`DELIVERY_COLUMNS` order."""
    return DeliveryRecord(
        delivery_id=row[0],
        webhook_id=row[1],
        game_id=row[2],
        event=row[3],
        body=row[4],
        state=row[5],
        attempts=int(row[6]),
        created_at=dialect.time_text(row[7]),
        next_attempt_at=dialect.optional_time_text(row[8]),
        delivered_at=dialect.optional_time_text(row[9]),
        last_status_code=row[10],
        last_error=row[11],
        history=history,
    )


def metadata_json(metadata: Mapping[str, JSON]) -> str:
    """The canonical JSON text of a metadata dict; ``ValueError`` if it is not one."""
    if not isinstance(metadata, Mapping):
        raise ValueError("metadata must be a JSON object")
    try:
        return canonical_json(dict(metadata))
    except (TypeError, ValueError) as e:
        raise ValueError(f"metadata is not plain JSON data: {e}") from e


@dataclass(frozen=True)
class PreparedGame:
    """A game to create, checked and sealed before the transaction starts."""

    game_id: str
    game_type: str
    status: str
    metadata_json: str
    events: tuple[SealedEvent, ...]

    @property
    def version(self) -> int:
        """The version the game row starts at (its number of events)."""
        return len(self.events)

    @property
    def last_hash(self) -> str:
        """The hash of the last event (genesis when there is none)."""
        return self.events[-1].hash if self.events else GENESIS_HASH


def prepare_games(games: Sequence[NewGame], recorded_at: str, signer: Signer | None = None) -> list[PreparedGame]:
    """Check, seal and sign (with ``signer``, if any) a batch of games to create.

    Raises ``ValueError`` for an empty id, type or status or malformed
    metadata / events, and GameExists if the batch names an id twice."""
    prepared: list[PreparedGame] = []
    seen: set[str] = set()
    for game_id, game_type, metadata, new_events, status in games:
        for name, value in (("game_id", game_id), ("game_type", game_type), ("status", status)):
            if not isinstance(value, str) or not value:
                raise ValueError(f"{name} must be a non-empty string, got {value!r}")
        if game_id in seen:
            raise GameExists(f"game {game_id!r} appears twice in the batch")
        seen.add(game_id)
        prepared.append(
            PreparedGame(
                game_id=game_id,
                game_type=game_type,
                status=status,
                metadata_json=metadata_json(metadata),
                events=tuple(e.signed(signer) for e in seal(game_id, 0, GENESIS_HASH, new_events, recorded_at)),
            )
        )
    return prepared


def event_params(e: SealedEvent) -> tuple[Any, ...]:
    """The values of an events INSERT, in :data:`EVENT_COLUMNS` order without ``position``."""
    return (
        e.game_id,
        e.seq,
        e.type,
        e.schema_version,
        e.payload_json,
        e.recorded_at,
        e.seat,
        e.idempotency_key,
        e.prev_hash,
        e.hash,
        e.signature,
        e.key_id,
    )


def game_params(game: PreparedGame, now: Any) -> tuple[Any, ...]:
    """The values of a games INSERT: ``game_id, game_type, status, version,
    last_hash, created_at, updated_at, metadata``."""
    return (game.game_id, game.game_type, game.status, game.version, game.last_hash, now, now, game.metadata_json)


def check_append_args(
    events: Sequence[NewEvent], expected_version: int, status: str | None, token: TokenChange | None = None
) -> None:
    """Refuse an append that could never be valid (``ValueError``)."""
    if token is not None:
        token.check(events)
    if not events:
        raise ValueError("append needs at least one event")
    if not isinstance(expected_version, int) or expected_version < 0:
        raise ValueError(f"expected_version must be an int >= 0, got {expected_version!r}")
    if status is not None and (not isinstance(status, str) or not status):
        raise ValueError(f"status must be a non-empty string or None, got {status!r}")


def check_page(limit: int | None) -> None:
    """Refuse a page size outside ``1..MAX_PAGE`` (``ValueError``)."""
    if limit is not None and (not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE):
        raise ValueError(f"limit must be between 1 and {MAX_PAGE}, got {limit!r}")
