"""Between domain events and stored envelopes.

``encode`` turns what the rules produced into a :class:`NewEvent` for
``append``; ``decode`` rebuilds the domain event from a stored envelope,
upcasting payloads written at an older schema version first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core import JSON, Event, GameDefinition, decode_event
from events.encoding.canonical import canonical_json
from events.encoding.upcasting import UPCASTERS, UpcasterRegistry
from events.records import IntegrityError, NewEvent, StoredEvent


class DecodeError(IntegrityError):
    """A stored event cannot be turned back into a domain event."""


def encode(game: GameDefinition[Any], event: Event, seat: int | None) -> NewEvent:
    """The :class:`NewEvent` to append for ``event`` of ``game``, acted by ``seat``.

    Raises ``ValueError`` if ``event``'s class is not one of ``game``'s event
    types (it could never be decoded)."""
    registered = game.event_types.get(event.TYPE)
    if registered is not type(event):
        raise ValueError(f"{type(event).__name__} is not an event type of game {game.type_id!r}")
    return NewEvent(
        type=event.TYPE, payload=event.to_payload(), schema_version=event.SCHEMA_VERSION, seat=seat
    )


def current_payload(
    game: GameDefinition[Any], stored: StoredEvent, registry: UpcasterRegistry = UPCASTERS
) -> Mapping[str, JSON]:
    """``stored``'s payload upcast to the schema version the code declares.

    Raises DecodeError for an event type ``game`` does not know and
    UpcastError (a DecodeError sibling) if it cannot be upcast."""
    cls = game.event_types.get(stored.type)
    if cls is None:
        raise DecodeError(f"game {game.type_id!r} has no event type {stored.type!r} (seq {stored.seq})")
    return registry.upcast(
        game.type_id, stored.type, stored.schema_version, stored.payload, cls.SCHEMA_VERSION
    )


def decode(game: GameDefinition[Any], stored: StoredEvent, registry: UpcasterRegistry = UPCASTERS) -> Event:
    """The domain event ``stored`` holds, at the current schema version.

    Raises DecodeError (or UpcastError) if the stored data does not fit."""
    payload = current_payload(game, stored, registry)
    try:
        return decode_event(game, stored.type, payload)
    except (TypeError, ValueError) as e:
        raise DecodeError(f"game {game.type_id!r} event seq {stored.seq} ({stored.type}): {e}") from e


def dumps_payload(payload: Mapping[str, JSON]) -> str:
    """The canonical JSON text of a payload (as stored and hashed)."""
    return canonical_json(dict(payload))
