"""The statements the PostgreSQL store sends (each calls a database function
of the migrations, one round trip) and the packing of their arguments."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from events.integrity.sealing import PendingEvent
from events.integrity.signing import Signer
from events.sql.deliveries import FAIR_CLAIM
from events.sql.dialect import POSTGRES
from events.sql.rows import PreparedGame

#: The appends judge the time inside the append (migration 0030): ``(not_before, not_after, ...)``; the
#: functions of migration 0075 do what ``cablecar_append_*_timed`` do, in one function and four statements.
APPEND = (
    "SELECT r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hashes FROM cablecar_append_batch_lean("
    "%s, %s, %s, %s, %s, %s, %s, %s, %s::text[], %s::integer[], %s::integer[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s, %s, %s::text[], %s)"
)
APPEND_ONE = (
    "SELECT r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hash"
    " FROM cablecar_append_one_lean(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::text[], %s, %s, %s,"
    " %s)"
)
#: APPEND's arguments of several appends, each column as one array (:func:`combine_appends`): the appends run one
#: after the other in one statement, so in one transaction, each with its own verdict row, in the given order.
APPEND_MANY = (
    "SELECT a.r_outcome, a.r_value, a.r_request_hash, a.r_prev_hash, a.r_position, a.r_hashes"
    " FROM unnest(%s::timestamptz[], %s::timestamptz[], %s::text[], %s::bigint[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s::text[], %s::text[]) WITH ORDINALITY AS p(not_before, not_after, game_id, expected, key,"
    " request_hash, status, recorded_at, types, versions, seats, payloads, heads, tails, guard_path, guard_value,"
    " prev_hash, signatures, key_id, ord)"
    " CROSS JOIN LATERAL cablecar_append_batch_lean(p.not_before, p.not_after, p.game_id, p.expected, p.key,"
    " p.request_hash, p.status, p.recorded_at, p.types::text[], p.versions::integer[], p.seats::integer[],"
    " p.payloads::text[], p.heads::text[], p.tails::text[], p.guard_path::text[], p.guard_value, p.prev_hash,"
    " p.signatures::text[], p.key_id) AS a ORDER BY p.ord"
)
#: APPEND_ONE's arguments, then a seat and its new token hash: the one ``seat_token_rotated`` event appended
#: and the seat's hash set with it (migration 0040), the only change of a game's metadata after its creation.
ROTATE_ONE = (
    "SELECT r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hash"
    " FROM cablecar_rotate_seat_token_timed(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::text[], %s,"
    " %s, %s, %s, %s, %s)"
)
#: A game's row and opening events (migrations 0012, 0030): returns the first event's position.
CREATE_GAME = (
    "SELECT cablecar_create_game_timed(%s, %s, %s, %s, %s, %s, %s::text[], %s::integer[], %s::integer[], %s::text[],"
    " %s::text[], %s::text[], %s)"
)
#: the database's clock and the time of one event of a game (after a 'clock' refusal)
MEASURE = "SELECT clock_timestamp(), (SELECT recorded_at FROM events WHERE game_id = %s AND seq = %s)"
#: the head to sign on when none is known: never a game's, so the database answers 'head' with the real one
UNKNOWN_HEAD = "unknown"

#: Record a watched game and read its version (see ``PostgresEventLog._watched_version``).
RECORD_WATCH = "SELECT cablecar_watch_game(%s, %s)"

#: Lease the deliveries FAIR_CLAIM picks: ``(owner, lease_until, now, now,
#: now, per_webhook, per_organiser, limit, now)``; ``SKIP LOCKED``: a
#: concurrent claimer takes other rows without waiting.
CLAIM = (
    "UPDATE webhook_deliveries d SET lease_owner = %s, lease_until = %s FROM webhooks w"
    " WHERE w.webhook_id = d.webhook_id AND d.delivery_no IN ("
    "  SELECT c.delivery_no FROM webhook_deliveries c WHERE c.delivery_no IN (" + POSTGRES.sql(FAIR_CLAIM) + ")"
    "  AND c.state = 'pending' AND (c.lease_until IS NULL OR c.lease_until <= %s) FOR UPDATE OF c SKIP LOCKED)"
    " RETURNING d.delivery_id, d.webhook_id, d.game_id, d.event, d.body, w.url, w.secret, d.attempts,"
    " d.occurrence, d.body_mac, d.next_attempt_at, d.delivery_no"
)


def text_array(items: Sequence[object]) -> str:
    """A PostgreSQL ``text[]`` literal (``{"a","2",NULL}``; the statement may
    cast it): a plain string parameter is much cheaper for psycopg to send
    than a list it adapts to an array."""
    return "{" + ",".join("NULL" if item is None else _quoted(str(item)) for item in items) + "}"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def combine_appends(calls: Sequence[tuple[str, Sequence[Any]]]) -> tuple[str, tuple[str, ...]]:
    """APPEND_MANY and its arguments for appends each sent as APPEND or APPEND_ONE: the APPEND arguments of
    each (an APPEND_ONE's event as arrays of one), column by column."""
    rows = [params if sql == APPEND else _one_as_batch(params) for sql, params in calls]
    return APPEND_MANY, tuple(text_array(column) for column in zip(*rows, strict=True))


def _one_as_batch(params: Sequence[Any]) -> tuple[Any, ...]:
    # APPEND_ONE: 8 of the append, the event's type, version, payload, seat, head, tail, 2 of the guard, the prev
    # hash, the signature, the key id; APPEND takes the event's as arrays (seats and versions as integer[])
    (*head, kind, version, payload, seat, doc_head, doc_tail, guard_path, guard_value, prev_hash, signature,
     key_id) = params
    return (*head, text_array([kind]), int_array([version]), int_array([seat]), text_array([payload]),
            text_array([doc_head]), text_array([doc_tail]), guard_path, guard_value, prev_hash,
            text_array([signature]), key_id)


def int_array(items: Sequence[int | None]) -> str:
    """A PostgreSQL ``integer[]`` literal (``{1,NULL}``)."""
    return "{" + ",".join("NULL" if item is None else str(int(item)) for item in items) + "}"


def create_args(game: PreparedGame, now: datetime, recorded_at: str) -> tuple[Any, ...]:
    """The arguments of ``cablecar_create_game`` (migration 0012) for ``game``."""
    events = game.events
    return (
        game.game_id, game.game_type, game.status, now, game.metadata_json, recorded_at,
        text_array([e.type for e in events]),
        int_array([e.schema_version for e in events]),
        int_array([e.seat for e in events]),
        text_array([e.payload_json for e in events]),
        text_array([e.hash for e in events]),
        text_array([e.signature or "" for e in events]),
        events[0].key_id if events else None,
    )


def sign_chain(pending: Sequence[PendingEvent], prev_hash: str, signer: Signer) -> list[tuple[str, str]]:
    """``(hash, signature)`` of each pending event chained after ``prev_hash``."""
    out: list[tuple[str, str]] = []
    for p in pending:
        prev_hash = p.digest(prev_hash)
        out.append((prev_hash, signer.sign(prev_hash)))
    return out


def batch_args(pending: Sequence[PendingEvent]) -> tuple[str, ...]:
    """The per-event array arguments of ``cablecar_append_batch`` (migration 0008)."""
    return (
        text_array([p.type for p in pending]),
        int_array([p.schema_version for p in pending]),
        int_array([p.seat for p in pending]),
        text_array([p.payload_json for p in pending]),
        text_array([p.head for p in pending]),
        text_array([p.tail for p in pending]),
    )
