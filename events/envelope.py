"""The hash chain of stored events, as pure functions.

Every stored event carries ``hash`` = SHA-256 (lower-case hex) of the
canonical JSON encoding of the object::

    {game_id, seq, type, schema_version, payload, recorded_at, seat,
     idempotency_key, prev_hash}

where ``prev_hash`` is the previous event's ``hash`` (``"0" * 64`` for the
first event of a game).  Canonical JSON means: keys sorted, separators
``(",", ":")``, non-ASCII characters written as themselves (UTF-8 bytes are
hashed), no NaN/Infinity.  The global ``position`` is deliberately *not*
hashed: it is assigned by the database at commit time, after the hash.

This module imports no database driver, so an offline verifier (a tournament
tool holding an export) can check a chain with it alone.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.core import JSON
from events.store import ChainReport, NewEvent, StoredEvent

if TYPE_CHECKING:
    from events.signing import Signer

#: ``prev_hash`` of the first event of every game.
GENESIS_HASH = "0" * 64

_ENCODER = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"), check_circular=True
)


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


def canonical_json(value: JSON) -> str:
    """Encode ``value`` canonically (sorted keys, compact, UTF-8 text).

    Raises ``TypeError`` or ``ValueError`` if ``value`` is not plain JSON data
    (e.g. a set, an object, NaN)."""
    return _ENCODER.encode(value)


def event_hash(
    *,
    game_id: str,
    seq: int,
    type: str,
    schema_version: int,
    payload: Mapping[str, JSON],
    recorded_at: str,
    seat: int | None,
    idempotency_key: str | None,
    prev_hash: str,
) -> str:
    """The SHA-256 hex digest that seals one event (see the module docs)."""
    document = {
        "game_id": game_id,
        "seq": seq,
        "type": type,
        "schema_version": schema_version,
        "payload": payload,
        "recorded_at": recorded_at,
        "seat": seat,
        "idempotency_key": idempotency_key,
        "prev_hash": prev_hash,
    }
    return hashlib.sha256(canonical_json(document).encode("utf-8")).hexdigest()


_new = object.__new__


def stored_event(
    game_id: str,
    seq: int,
    position: int,
    type: str,
    schema_version: int,
    payload: Mapping[str, JSON],
    recorded_at: str,
    seat: int | None,
    idempotency_key: str | None,
    prev_hash: str,
    hash: str,
    signature: str | None = None,
    key_id: str | None = None,
) -> StoredEvent:
    """``StoredEvent(...)`` with these fields, built without the generated
    ``__init__``: a frozen dataclass sets each of its thirteen fields through
    ``object.__setattr__``, which was a third of the cost of loading a game.
    ``StoredEvent`` has no ``__post_init__`` to skip (a test pins both facts)."""
    event = _new(StoredEvent)
    fields = event.__dict__
    fields["game_id"] = game_id
    fields["seq"] = seq
    fields["position"] = position
    fields["type"] = type
    fields["schema_version"] = schema_version
    fields["payload"] = payload
    fields["recorded_at"] = recorded_at
    fields["seat"] = seat
    fields["idempotency_key"] = idempotency_key
    fields["prev_hash"] = prev_hash
    fields["hash"] = hash
    fields["signature"] = signature
    fields["key_id"] = key_id
    return event


def recompute_hash(event: StoredEvent) -> str:
    """The hash ``event`` should carry given its other fields."""
    return event_hash(
        game_id=event.game_id,
        seq=event.seq,
        type=event.type,
        schema_version=event.schema_version,
        payload=event.payload,
        recorded_at=event.recorded_at,
        seat=event.seat,
        idempotency_key=event.idempotency_key,
        prev_hash=event.prev_hash,
    )


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


def verify_events(
    game_id: str, events: Sequence[StoredEvent], expected_count: int | None = None
) -> ChainReport:
    """Check a game's chain as read back (in storage order, ascending ``seq``).

    Detects an edited event (its hash no longer matches its fields), a removed
    event (a gap in ``seq`` or a broken ``prev_hash`` link; a removed tail when
    ``expected_count``, the game's recorded version, is given), reordered
    events (``seq`` out of order, broken links, positions not increasing with
    ``seq``) and events of another game.  Never raises for bad data: every
    problem is listed in the report, ``first_bad_seq`` is the lowest seq
    involved."""
    problems: list[str] = []
    bad_seqs: list[int] = []

    def flag(seq: int, message: str) -> None:
        problems.append(f"seq {seq}: {message}")
        bad_seqs.append(seq)

    prev_hash = GENESIS_HASH
    prev_position: int | None = None
    for index, event in enumerate(events):
        expected_seq = index + 1
        if event.game_id != game_id:
            flag(event.seq, f"belongs to game {event.game_id!r}")
        if event.seq != expected_seq:
            flag(min(event.seq, expected_seq), f"found where seq {expected_seq} was expected")
        if event.prev_hash != prev_hash:
            flag(event.seq, "prev_hash does not link to the previous event")
        if recompute_hash(event) != event.hash:
            flag(event.seq, "hash does not match the event's contents")
        if prev_position is not None and event.position <= prev_position:
            flag(event.seq, f"position {event.position} is not after the previous event's {prev_position}")
        prev_hash = event.hash
        prev_position = event.position
    if expected_count is not None and expected_count != len(events):
        missing_from = min(len(events), expected_count) + 1
        problems.append(f"the game's version is {expected_count} but {len(events)} events are stored")
        bad_seqs.append(missing_from)
    return ChainReport(
        ok=not problems,
        checked=len(events),
        problems=tuple(problems),
        first_bad_seq=min(bad_seqs) if bad_seqs else None,
    )
