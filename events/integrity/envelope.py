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
tool holding an export) can check a chain with it alone.  New events are
numbered, hashed and signed on their way in by :mod:`events.integrity.sealing`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from domain.core import JSON
from events.encoding.canonical import canonical_json
from events.records import ChainReport, StoredEvent

#: ``prev_hash`` of the first event of every game.
GENESIS_HASH = "0" * 64

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
