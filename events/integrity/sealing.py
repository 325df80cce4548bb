"""New events on their way into the chain: checked, numbered after a game's
last event, hashed after its last hash and signed (:mod:`events.integrity.envelope`
defines the hash; this module builds it for events not yet stored).

The canonical hash document is split around ``prev_hash``
(:func:`hash_document_parts`), so the hash can be finished by whoever learns
the previous hash: Python, or the database inside its lock.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.core import JSON
from events.encoding.canonical import canonical_json
from events.integrity.envelope import stored_event
from events.records import NewEvent, StoredEvent

if TYPE_CHECKING:
    from events.integrity.signing import Signer


_encode_string = json.encoder.encode_basestring  # the C escaper JSONEncoder uses for str


def _json_scalar(value: str | int | None) -> str:
    """A string, int or None as canonical JSON (what ``canonical_json`` writes)."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return _encode_string(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise TypeError(f"expected a string, an int or None, got {value!r}")


@dataclass(frozen=True)
class SealedEvent:
    """An event ready to insert: every stored field but the global position.

    ``payload_json`` is the canonical encoding of ``payload``; backends store
    exactly that text so that the hash can be recomputed from what is read
    back."""

    game_id: str
    seq: int
    type: str
    schema_version: int
    payload: Mapping[str, JSON]
    payload_json: str
    recorded_at: str
    seat: int | None
    idempotency_key: str | None
    prev_hash: str
    hash: str
    signature: str | None = None
    key_id: str | None = None

    def signed(self, signer: Signer | None) -> SealedEvent:
        """This event with ``signer``'s signature of its hash (itself without a signer)."""
        if signer is None:
            return self
        return dataclasses.replace(self, signature=signer.sign(self.hash), key_id=signer.key_id)

    def at(self, position: int) -> StoredEvent:
        """The stored envelope once the database assigned ``position``."""
        return StoredEvent(
            game_id=self.game_id,
            seq=self.seq,
            position=position,
            type=self.type,
            schema_version=self.schema_version,
            payload=self.payload,
            recorded_at=self.recorded_at,
            seat=self.seat,
            idempotency_key=self.idempotency_key,
            prev_hash=self.prev_hash,
            hash=self.hash,
            signature=self.signature,
            key_id=self.key_id,
        )


def validate_new_event(event: NewEvent) -> str:
    """Check the shape of ``event`` and return its canonical payload text.

    Raises ``ValueError`` naming the problem (empty type, schema version below
    1, a seat that is not an int, a payload that is not a JSON object)."""
    if not isinstance(event.type, str) or not event.type:
        raise ValueError(f"event type must be a non-empty string, got {event.type!r}")
    if (
        not isinstance(event.schema_version, int)
        or isinstance(event.schema_version, bool)
        or event.schema_version < 1
    ):
        raise ValueError(f"{event.type}: schema_version must be an int >= 1, got {event.schema_version!r}")
    if event.seat is not None and (not isinstance(event.seat, int) or isinstance(event.seat, bool)):
        raise ValueError(f"{event.type}: seat must be an int or None, got {event.seat!r}")
    if not isinstance(event.payload, Mapping):
        raise ValueError(f"{event.type}: payload must be a JSON object")
    payload = event.payload if type(event.payload) is dict else dict(event.payload)
    try:
        return canonical_json(payload)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{event.type}: payload is not plain JSON data: {e}") from e


@dataclass(frozen=True)
class PendingEvent:
    """An event numbered but not yet chained: every hashed field except
    ``prev_hash``, plus the canonical hash document split around it
    (``head + prev_hash + tail``), so the hash can be finished by whoever
    learns the previous hash (Python, or the database inside its lock)."""

    game_id: str
    seq: int
    type: str
    schema_version: int
    payload: Mapping[str, JSON]
    payload_json: str
    recorded_at: str
    seat: int | None
    idempotency_key: str | None
    head: str
    tail: str

    def digest(self, prev_hash: str) -> str:
        """The hash this event gets after ``prev_hash``."""
        return hashlib.sha256((self.head + prev_hash + self.tail).encode("utf-8")).hexdigest()

    def stored(
        self, prev_hash: str, digest: str, position: int, signature: str | None = None, key_id: str | None = None
    ) -> StoredEvent:
        """The stored envelope once chained after ``prev_hash`` (with hash
        ``digest``, signed ``signature`` by ``key_id``) and given ``position``."""
        return stored_event(
            self.game_id,
            self.seq,
            position,
            self.type,
            self.schema_version,
            self.payload,
            self.recorded_at,
            self.seat,
            self.idempotency_key,
            prev_hash,
            digest,
            signature,
            key_id,
        )

    def chain(self, prev_hash: str, digest: str | None = None) -> SealedEvent:
        """The sealed event after ``prev_hash`` (``digest`` if already computed)."""
        if digest is None:
            digest = self.digest(prev_hash)
        return SealedEvent(
            game_id=self.game_id,
            seq=self.seq,
            type=self.type,
            schema_version=self.schema_version,
            payload=self.payload,
            payload_json=self.payload_json,
            recorded_at=self.recorded_at,
            seat=self.seat,
            idempotency_key=self.idempotency_key,
            prev_hash=prev_hash,
            hash=digest,
        )


def hash_document_parts(
    *,
    game_id: str,
    seq: int,
    type: str,
    schema_version: int,
    payload_json: str,
    recorded_at: str,
    seat: int | None,
    idempotency_key: str | None,
) -> tuple[str, str]:
    """``(head, tail)`` with ``head + prev_hash + tail`` equal to the canonical
    document :func:`event_hash` hashes (``payload_json`` must be the canonical
    encoding of the payload).  Keys are written in sorted order, so this is
    the same text ``canonical_json`` produces for the whole document."""
    enc = _json_scalar
    head = (
        f'{{"game_id":{enc(game_id)},"idempotency_key":{enc(idempotency_key)},'
        f'"payload":{payload_json},"prev_hash":"'
    )
    tail = (
        f'","recorded_at":{enc(recorded_at)},"schema_version":{enc(schema_version)},'
        f'"seat":{enc(seat)},"seq":{enc(seq)},"type":{enc(type)}}}'
    )
    return head, tail


def number(
    game_id: str,
    after_seq: int,
    events: Sequence[NewEvent],
    recorded_at: str,
    idempotency_key: str | None = None,
) -> list[PendingEvent]:
    """Check ``events`` and number them after seq ``after_seq``.

    The payloads are normalised through their canonical JSON encoding (tuples
    become lists), so they are exactly what a later read yields.  Raises
    ``ValueError`` if an event is malformed (see :func:`validate_new_event`)."""
    pending: list[PendingEvent] = []
    for offset, event in enumerate(events, start=1):
        payload_json = validate_new_event(event)
        seq = after_seq + offset
        head, tail = hash_document_parts(
            game_id=game_id,
            seq=seq,
            type=event.type,
            schema_version=event.schema_version,
            payload_json=payload_json,
            recorded_at=recorded_at,
            seat=event.seat,
            idempotency_key=idempotency_key,
        )
        pending.append(
            PendingEvent(
                game_id=game_id,
                seq=seq,
                type=event.type,
                schema_version=event.schema_version,
                payload=json.loads(payload_json),
                payload_json=payload_json,
                recorded_at=recorded_at,
                seat=event.seat,
                idempotency_key=idempotency_key,
                head=head,
                tail=tail,
            )
        )
    return pending


def seal(
    game_id: str,
    after_seq: int,
    prev_hash: str,
    events: Sequence[NewEvent],
    recorded_at: str,
    idempotency_key: str | None = None,
) -> list[SealedEvent]:
    """Number and hash-chain ``events`` after seq ``after_seq`` / ``prev_hash``.

    Raises ``ValueError`` if an event is malformed (see :func:`number`)."""
    sealed: list[SealedEvent] = []
    for pending in number(game_id, after_seq, events, recorded_at, idempotency_key):
        sealed.append(pending.chain(prev_hash))
        prev_hash = sealed[-1].hash
    return sealed
