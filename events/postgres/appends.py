"""Appends to the PostgreSQL store (:class:`~events.postgres.event_log.PostgresEventLog`).

Writes
    ``append`` is ONE round trip (shared with the appends of other requests
    that wait meanwhile: :mod:`events.postgres.groupcommit`): the events are
    validated, numbered (seq = expected + i) and their canonical hash
    documents prepared here, then the
    ``cablecar_append_one_lean`` / ``cablecar_append_batch_lean`` database
    functions (migration ``0075_leaner_append.sql``, the checks of 0008, 0012
    and 0030 in one function and four statements)
    check a metadata guard (:class:`~events.records.MetadataGuard`), the
    idempotency key and the version, finish the hash chain on the game's
    ``last_hash`` and claim
    the game row with ``UPDATE ... WHERE version = expected``.  Concurrent
    appends to one game, from any number of processes, queue on that row
    lock; the losers re-read after the winner commits and get
    :class:`StaleVersion` (or their replay, for a retried idempotency key),
    so exactly one of several writers with the same ``expected_version``
    wins.  Game creation runs its inserts in one pipelined transaction.

One clock
    The events are signed here, and the signature covers ``recorded_at``,
    so the time is stamped here too, from :meth:`PostgresDatabase.estimated_time`
    (this process's clock plus the offset measured from the database's
    ``clock_timestamp()``), and judged there: the ``*_timed`` functions
    (migration ``0030_one_clock.sql``) refuse a time more than 1 s off the
    database's or before the game's last event ('clock': measure again,
    retry once), an action after a running deadline ('late') and a timeout
    before its deadline ('early'), each by ``clock_timestamp()`` inside the
    append.  Still one round trip; the offset is measured on first use and
    whenever :meth:`PostgresDatabase.database_time` is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from events.encoding.timestamps import format_timestamp
from events.integrity.envelope import GENESIS_HASH
from events.integrity.sealing import number
from events.integrity.signing import Signer
from events.postgres.statements import (
    APPEND,
    APPEND_ONE,
    ROTATE_ONE,
    UNKNOWN_HEAD,
    batch_args,
    sign_chain,
    text_array,
)
from events.records import (
    PLAIN,
    AppendOptions,
    AppendResult,
    GameNotFound,
    GuardFailed,
    IntegrityError,
    NewEvent,
    OutsideDeadline,
    StaleVersion,
    StoredEvent,
)
from events.sql.dialect import POSTGRES
from events.sql.rows import EVENT_COLUMNS, check_append_args, events_from_rows

if TYPE_CHECKING:
    from events.postgres.database import PostgresDatabase


class PostgresAppends:
    """``append``, stamped with the database's one clock (see the module docs)."""

    _database: PostgresDatabase

    if TYPE_CHECKING:
        def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    def append(
        self, game_id: str, expected_version: int, events: Sequence[NewEvent], options: AppendOptions = PLAIN
    ) -> AppendResult:
        """Append ``events`` atomically after ``expected_version`` (see
        :meth:`EventStore.append`); ``ValueError`` for an empty or malformed batch.

        ``recorded_at`` is :meth:`estimated_time` (the database's clock as
        measured here, kept within ``not_before`` .. ``not_after``, which the
        functions judge by the database's own clock); the functions refuse it
        ('clock') when it is more than a second off the database's own or
        before the game's last event: the offset is measured again and the
        last event's time read (one more round trip) and the append tried
        once more, stamped no earlier than that event (migration 0030).

        One round trip: the events are numbered, chained on the head this
        process saw at ``expected_version`` (:mod:`events.postgres.heads`) and
        signed here, and the ``cablecar_append_one_lean`` /
        ``cablecar_append_batch_lean`` database functions check the time, the
        guard, the idempotency key, the version and the head, finish the hash
        chain, claim the game row and insert (migration 0075).  A head not known here costs a second round
        trip: the functions answer with the right one, and the events are
        signed again on it.  With ``token``, ``cablecar_rotate_seat_token_timed``
        appends the one ``seat_token_rotated`` event and sets the seat's hash
        in the same statement (migration 0040)."""
        not_before, not_after = options.not_before, options.not_after
        check_append_args(events, expected_version, options.status, options.token)
        signer = self._database.signer
        if signer is None:
            raise IntegrityError("this store has no signing key: the database takes signed events only")
        known = GENESIS_HASH if expected_version == 0 else self._database.heads.at(game_id, expected_version)
        chained_on = known or UNKNOWN_HEAD
        floor = not_before
        for attempt in range(2):
            # within the window: whether it holds is the database's call (its clock_timestamp())
            now = self._database.estimated_time()
            now = now if floor is None else max(now, floor)
            recorded_at = format_timestamp(now if not_after is None else min(now, not_after))
            outcome, result = self._append_once(
                game_id, expected_version, events, options, recorded_at, chained_on, signer
            )
            if outcome != "clock":
                break
            if attempt == 0:  # measure the offset again; never stamp before the game's last event
                last = self._database.measure(game_id, expected_version)
                floor = last if floor is None or (last is not None and last > floor) else floor
        else:
            raise IntegrityError(f"game {game_id}: the database refused this server's clock twice")
        if outcome == "late" or outcome == "early":
            self._database.database_time()  # this process misjudged the deadline: measure again
            raise OutsideDeadline(game_id, expected_version, outcome)
        assert result is not None
        return result

    def _append_once(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        options: AppendOptions,
        recorded_at: str,
        chained_on: str,
        signer: Signer,
    ) -> tuple[str, AppendResult | None]:
        """One append stamped ``recorded_at`` (a second round trip only for an
        unknown head); ``(outcome, None)`` for a clock refusal, else
        ``("appended", result)`` or the store's error."""
        guard, token = options.guard, options.token
        pending = number(game_id, expected_version, events, recorded_at, options.idempotency_key)
        head = (options.not_before, options.not_after, game_id, expected_version, options.idempotency_key,
                options.request_hash, options.status, recorded_at)
        guard_args = (None, None) if guard is None else (text_array(guard.path), guard.value)
        for _ in range(2):  # a second time only when the head was not known (or wrong): see 0012
            signed = sign_chain(pending, chained_on, signer)
            if len(pending) == 1:
                p = pending[0]
                params = (*head, p.type, p.schema_version, p.payload_json, p.seat, p.head, p.tail, *guard_args,
                          chained_on, signed[0][1], signer.key_id)
                if token is None:
                    row = self._database.group.fetch_one(APPEND_ONE, params, game_id)
                else:
                    with self._database.connections.connection(writing=True) as conn:
                        rotated = conn.execute(ROTATE_ONE, (*params, token.seat, token.token_hash)).fetchone()
                    assert rotated is not None
                    row = rotated
            else:
                signatures = text_array([s for _, s in signed])
                row = self._database.group.fetch_one(
                    APPEND, (*head, *batch_args(pending), *guard_args, chained_on, signatures, signer.key_id), game_id
                )
            outcome, value, stored_request_hash, prev_hash, position, _hashes = row
            last_seq = position
            if outcome == "replayed":
                replayed = self._rows(
                    f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND seq BETWEEN %s AND %s ORDER BY seq",
                    (game_id, value, last_seq),
                )
                return "replayed", AppendResult(
                    tuple(events_from_rows(replayed, POSTGRES)), replayed=True, request_hash=stored_request_hash
                )
            if outcome in ("clock", "late", "early"):
                return outcome, None
            if outcome != "head":
                break
            if chained_on != UNKNOWN_HEAD:
                self._database.heads.forget(game_id)
            if prev_hash == chained_on:  # pragma: no cover - the database said it differs
                raise IntegrityError(f"game {game_id}: the append functions disagree about the chain head")
            chained_on = prev_hash
        else:
            raise IntegrityError(f"game {game_id}: its chain head moved while its version did not")
        if outcome == "not_found":
            raise GameNotFound(game_id)
        if outcome == "guard_failed":
            raise GuardFailed(game_id)
        if outcome == "stale":
            raise StaleVersion(game_id, expected_version, int(value))
        stored: list[StoredEvent] = []
        for i, (p, (digest, signature)) in enumerate(zip(pending, signed, strict=True)):
            stored.append(p.stored(prev_hash, digest, position + i, signature, signer.key_id))
            prev_hash = digest
        self._database.heads.saw(game_id, stored[-1].seq, stored[-1].hash)
        return "appended", AppendResult(tuple(stored), replayed=False, request_hash=options.request_hash)
