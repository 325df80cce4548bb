"""What both backends share: column lists, row -> envelope conversion and
argument checks done before a transaction starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import JSON
from events.envelope import GENESIS_HASH, SealedEvent, canonical_json, seal, stored_event
from events.store import GameExists, GameRecord, NewEvent, StoredEvent

#: Column order of every events SELECT (see :func:`event_from_row`).
EVENT_COLUMNS = "game_id, seq, position, type, schema_version, payload, recorded_at, seat, idempotency_key, prev_hash, hash"
#: Column order of every games SELECT (see :func:`game_from_row`).
GAME_COLUMNS = "game_id, game_type, status, version, created_at, updated_at, metadata"

#: Largest page ``list_games`` and ``read_all`` hand out.
MAX_PAGE = 10_000


def event_from_row(row: Sequence[Any], payload: Mapping[str, JSON]) -> StoredEvent:
    """A :class:`StoredEvent` from a row in :data:`EVENT_COLUMNS` order
    (``payload`` already decoded, since drivers differ there)."""
    return stored_event(
        row[0], row[1], row[2], row[3], row[4], payload, row[6], row[7], row[8], row[9], row[10]
    )


def game_from_row(
    row: Sequence[Any], created_at: str, updated_at: str, metadata: Mapping[str, JSON]
) -> GameRecord:
    """A :class:`GameRecord` from a row in :data:`GAME_COLUMNS` order (the
    timestamps and metadata converted by the caller)."""
    return GameRecord(
        game_id=row[0],
        game_type=row[1],
        status=row[2],
        version=row[3],
        created_at=created_at,
        updated_at=updated_at,
        metadata=metadata,
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


def prepare_games(
    games: Sequence[tuple[str, str, Mapping[str, JSON], Sequence[NewEvent], str]], recorded_at: str
) -> list[PreparedGame]:
    """Check and seal a batch of games to create.

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
                events=tuple(seal(game_id, 0, GENESIS_HASH, new_events, recorded_at)),
            )
        )
    return prepared


def check_append_args(events: Sequence[NewEvent], expected_version: int, status: str | None) -> None:
    """Refuse an append that could never be valid (``ValueError``)."""
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
