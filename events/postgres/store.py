"""The production store: PostgreSQL through psycopg 3 and a
``psycopg_pool.ConnectionPool`` (:mod:`events.postgres.connection`).

Writes
    ``append`` is ONE round trip: the events are validated, numbered (seq =
    expected + i) and their canonical hash documents prepared here, then the
    ``cablecar_append_one`` / ``cablecar_append_batch`` database functions
    (migration ``0008_global_log_without_lock.sql``)
    check a metadata guard (:class:`~events.store.MetadataGuard`), the
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
    so the time is stamped here too, from :meth:`PostgresStore.estimated_time`
    (this process's clock plus the offset measured from the database's
    ``clock_timestamp()``), and judged there: the ``*_timed`` functions
    (migration ``0030_one_clock.sql``) refuse a time more than 1 s off the
    database's or before the game's last event ('clock': measure again,
    retry once), an action after a running deadline ('late') and a timeout
    before its deadline ('early'), each by ``clock_timestamp()`` inside the
    append.  Still one round trip; the offset is measured on first use and
    whenever :meth:`PostgresStore.database_time` is read.

Global positions
    No lock is shared between games: appends to different games commit in
    parallel.  The readers' guarantee (``read_all`` never hands out a
    position below one it handed out before, so a tailing reader never skips
    a committed event) comes from the *transaction id / snapshot xmin*
    technique of transactional-outbox readers (as in eugene-khyst's
    ``postgresql-event-sourcing``, "Reliable transactional outbox with
    PostgreSQL", also used by Eventuous' and Marten-style subscriptions):
    each event records its writer's top-level transaction id
    (``pg_current_xact_id()``) and readers only read events of transactions
    older than the oldest one still running
    (``pg_snapshot_xmin(pg_current_snapshot())``).  Here the pair
    (transaction id, index in the transaction) is packed into the position
    itself, ``xid << 16 | index`` (migration
    ``0008_global_log_without_lock.sql``), so the cursor stays one growing
    number and no second column or index is needed.  Every transaction below
    the horizon has ended; one that commits later has an id at or above it,
    so its positions land above everything already read.  A transaction
    holding an id open (a long migration, a stuck session) holds the horizon
    back: readers wait for it, they never skip past it.  Positions skip
    numbers (by design, as the contract allows).

Availability
    The pool never blocks longer than ``timeout`` seconds (default 5):
    PoolTimeout and connection failures become :class:`StoreUnavailable`.
    Connections killed by a server restart are detected before use and
    replaced, so the store recovers by itself when the database comes back.

Webhook deliveries
    Shared work items (migration ``0003_tournaments.sql``): a claim leases
    rows picked with ``FOR UPDATE SKIP LOCKED``, so concurrent dispatchers
    on any number of hosts take disjoint deliveries without waiting on each
    other; the dispatch cursor row is locked ``FOR UPDATE`` while the
    deliveries it covers are inserted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import psycopg

from events.database import Database
from events.deliveries import CLAIM_UNCAPPED, ClaimedDelivery
from events.envelope import GENESIS_HASH, canonical_json, number
from events.postgres.connection import ClockRefused, PostgresConnections
from events.postgres.dbclock import DatabaseClock
from events.postgres.heads import ChainHeads
from events.postgres.listener import VersionListener
from events.postgres.standby import PRIMARY_POSITION, StandbyReader
from events.postgres.statements import (
    APPEND,
    APPEND_ONE,
    CLAIM,
    CREATE_GAME,
    MEASURE,
    RECORD_WATCH,
    UNKNOWN_HEAD,
    batch_args,
    create_args,
    sign_chain,
    text_array,
)
from events.signing import Signer
from events.sql.bot_turns import SqlBotTurnIndex
from events.sql.catalogue import SqlCatalogue
from events.sql.deadlines import SqlDeadlineIndex
from events.sql.deliveries import SqlDeliveryLog
from events.sql.dialect import POSTGRES
from events.sql.rows import (
    EVENT_COLUMNS,
    check_append_args,
    check_page,
    events_from_rows,
    metadata_json,
    prepare_games,
)
from events.sql.tournaments import SqlTournaments
from events.store import (
    JSON,
    AppendResult,
    EventReader,
    GameNotFound,
    GuardFailed,
    IntegrityError,
    MetadataGuard,
    NewEvent,
    NewGame,
    OutsideDeadline,
    StaleVersion,
    StoredEvent,
)
from events.timestamps import Clock, format_timestamp, parse_timestamp, system_clock


class PostgresStore(SqlCatalogue, SqlTournaments, SqlDeliveryLog, SqlDeadlineIndex, SqlBotTurnIndex, Database):
    """The event log, tournaments and delivery log on PostgreSQL (see the
    module docs)."""

    dialect = POSTGRES

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 5.0,
        fallback_poll: float = 2.0,
        clock: Clock = system_clock,
        read_url: str | None = None,
        signer: Signer | None = None,
    ) -> None:
        """Create the pool for ``url`` without waiting for the database.

        ``signer`` signs every event written (:mod:`events.signing`); the
        database refuses unsigned events (migration 0012), so a store
        without one only reads.

        ``timeout`` bounds every wait for a connection (and each connection
        attempt); ``fallback_poll`` is how often ``wait_for_events``
        re-checks the database even without a notification.  ``read_url``
        names a hot standby of it: :attr:`reader` then reads from there, on a
        pool of its own (:mod:`events.postgres.standby`)."""
        self._db = PostgresConnections(
            url, min_size=min_size, max_size=max_size, timeout=timeout
        )
        self._standby = (
            None
            if read_url is None
            else StandbyReader(read_url, self, self.wal_position, max_size=max_size, timeout=timeout)
        )
        self._clock = clock
        self._db_clock = DatabaseClock(clock)
        self._signer = signer
        self._heads = ChainHeads()
        self._fallback_poll = fallback_poll
        self._listener = VersionListener(url, connect_timeout=timeout)

    @property
    def reader(self) -> EventReader:
        """The standby's reads if one was configured, else this store."""
        return self if self._standby is None else self._standby

    def wal_position(self) -> int:
        """This database's WAL insert position (bytes): a standby that has
        replayed this far holds every commit made visible before the call."""
        return int(self._rows(PRIMARY_POSITION)[0][0])

    # -- the hooks of the shared SQL -------------------------------------------

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._db.connection() as conn:
            return conn.execute(sql, params).fetchall()

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Cursor[Any]]:
        with self._db.connection() as conn, conn.transaction():
            yield conn.cursor()

    @contextmanager
    def _snapshot(self) -> Iterator[psycopg.Cursor[Any]]:
        with self._db.connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield conn.cursor()

    def _create(
        self,
        games: Sequence[NewGame],
        first: Callable[[psycopg.Cursor[Any]], None] | None = None,
    ) -> list[tuple[StoredEvent, ...]]:
        for attempt in range(2):
            try:
                return self._create_once(games, first)
            except ClockRefused:
                if attempt == 1:
                    raise
                self.database_time()  # measure the offset again
        raise AssertionError("unreachable")  # pragma: no cover

    def _create_once(
        self,
        games: Sequence[NewGame],
        first: Callable[[psycopg.Cursor[Any]], None] | None,
    ) -> list[tuple[StoredEvent, ...]]:
        now = self.estimated_time()  # the database's clock (estimated): deadlines start from it
        recorded_at = format_timestamp(now)
        prepared = prepare_games(games, recorded_at, self._signer)
        if not prepared:
            return []
        with self._db.connection(writing=True) as conn:
            cur = conn.cursor()
            with conn.pipeline(), conn.transaction():
                if first is not None:
                    first(conn.cursor())
                cur.executemany(CREATE_GAME, [create_args(g, now, recorded_at) for g in prepared], returning=True)
            firsts = self._returned_positions(cur)
        for game in prepared:
            self._heads.saw(game.game_id, game.version, game.last_hash)
        return [
            tuple(e.at(start + i) for i, e in enumerate(game.events))
            for game, start in zip(prepared, firsts, strict=True)
        ]

    @staticmethod
    def _returned_positions(cur: psycopg.Cursor[Any]) -> list[int]:
        positions: list[int] = []
        for _ in cur.results():
            row = cur.fetchone()
            assert row is not None
            positions.append(0 if row[0] is None else int(row[0]))
        return positions

    # -- writes ------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        status: str | None = None,
        guard: MetadataGuard | None = None,
        not_before: datetime | None = None,
        not_after: datetime | None = None,
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
        signed here, and the ``cablecar_append_one`` / ``cablecar_append_batch``
        database functions check the guard, the idempotency key, the version
        and the head, finish the hash chain, claim the game row and insert
        (migrations 0008, 0012).  A head not known here costs a second round
        trip: the functions answer with the right one, and the events are
        signed again on it."""
        check_append_args(events, expected_version, status)
        signer = self._signer
        if signer is None:
            raise IntegrityError("this store has no signing key: the database takes signed events only")
        known = GENESIS_HASH if expected_version == 0 else self._heads.at(game_id, expected_version)
        chained_on = known or UNKNOWN_HEAD
        floor = not_before
        for attempt in range(2):
            # within the window: whether it holds is the database's call (its clock_timestamp())
            now = self.estimated_time()
            now = now if floor is None else max(now, floor)
            recorded_at = format_timestamp(now if not_after is None else min(now, not_after))
            outcome, result = self._append_once(
                game_id, expected_version, events, idempotency_key, request_hash, status, guard,
                (not_before, not_after), recorded_at, chained_on, signer,
            )
            if outcome != "clock":
                break
            if attempt == 0:  # measure the offset again; never stamp before the game's last event
                last = self._measure(game_id, expected_version)
                floor = last if floor is None or (last is not None and last > floor) else floor
        else:
            raise IntegrityError(f"game {game_id}: the database refused this server's clock twice")
        if outcome == "late" or outcome == "early":
            self.database_time()  # this process misjudged the deadline: measure again
            raise OutsideDeadline(game_id, expected_version, outcome)
        assert result is not None
        return result

    def _append_once(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None,
        request_hash: str | None,
        status: str | None,
        guard: MetadataGuard | None,
        window: tuple[datetime | None, datetime | None],
        recorded_at: str,
        chained_on: str,
        signer: Signer,
    ) -> tuple[str, AppendResult | None]:
        """One append stamped ``recorded_at`` (a second round trip only for an
        unknown head); ``(outcome, None)`` for a clock refusal, else
        ``("appended", result)`` or the store's error."""
        pending = number(game_id, expected_version, events, recorded_at, idempotency_key)
        head = (*window, game_id, expected_version, idempotency_key, request_hash, status, recorded_at)
        guard_args = (None, None) if guard is None else (text_array(guard.path), guard.value)
        for _ in range(2):  # a second time only when the head was not known (or wrong): see 0012
            signed = sign_chain(pending, chained_on, signer)
            with self._db.connection(writing=True) as conn:
                if len(pending) == 1:
                    p = pending[0]
                    params = (*head, p.type, p.schema_version, p.payload_json, p.seat, p.head, p.tail, *guard_args,
                              chained_on, signed[0][1], signer.key_id)
                    row = conn.execute(APPEND_ONE, params).fetchone()
                    assert row is not None
                    outcome, value, stored_request_hash, prev_hash, position, _digest = row
                    last_seq = position
                else:
                    signatures = text_array([s for _, s in signed])
                    row = conn.execute(
                        APPEND, (*head, *batch_args(pending), *guard_args, chained_on, signatures, signer.key_id)
                    ).fetchone()
                    assert row is not None
                    outcome, value, stored_request_hash, prev_hash, position, _hashes = row
                    last_seq = position
                if outcome == "replayed":
                    replayed = conn.execute(
                        f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND seq BETWEEN %s AND %s"
                        " ORDER BY seq",
                        (game_id, value, last_seq),
                    ).fetchall()
                    return "replayed", AppendResult(
                        tuple(events_from_rows(replayed, POSTGRES)), replayed=True, request_hash=stored_request_hash
                    )
            if outcome in ("clock", "late", "early"):
                return outcome, None
            if outcome != "head":
                break
            if chained_on != UNKNOWN_HEAD:
                self._heads.forget(game_id)
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
        self._heads.saw(game_id, stored[-1].seq, stored[-1].hash)
        return "appended", AppendResult(tuple(stored), replayed=False, request_hash=request_hash)

    def _saw_head(self, game_id: str, version: int, digest: str) -> None:
        self._heads.saw(game_id, version, digest)

    def database_time(self) -> datetime:
        """``clock_timestamp()`` of the database; also measures how far this
        store's clock is from it (:mod:`events.postgres.dbclock`)."""
        now, _ = self._db_clock.measure(lambda: (self._rows("SELECT clock_timestamp()")[0][0], None))
        return now

    def _measure(self, game_id: str, seq: int) -> datetime | None:
        """Measure the offset (as :meth:`database_time`) and read the time of
        the game's event ``seq`` (None if there is none), in one round trip."""
        _, last = self._db_clock.measure(lambda: tuple(self._rows(MEASURE, (game_id, seq))[0]))
        return None if last is None else parse_timestamp(last)

    def estimated_time(self) -> datetime:
        """This store's clock plus the offset measured by :meth:`database_time`
        (measured first if never; no round trip after that)."""
        return self._db_clock.estimate(self.database_time)

    def compare_and_set_metadata(self, game_id: str, key: str, expected: JSON, value: JSON) -> bool:
        """Set ``metadata[key]`` if it equals ``expected`` (jsonb equality), in one statement."""
        expected_json = canonical_json(expected)
        value_json = metadata_json({key: value})
        with self._db.connection() as conn:
            row = conn.execute(
                "SELECT cablecar_set_metadata(%s, %s, %s, %s, %s)",
                (game_id, key, expected_json, value_json, self.estimated_time()),
            ).fetchone()
        if row is None or not row[0]:
            self.version(game_id)  # raises GameNotFound for an unknown game
            return False
        return True

    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int,
        per_webhook: int = CLAIM_UNCAPPED, per_organiser: int = CLAIM_UNCAPPED,
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` due deliveries to ``owner``, fairly (see the
        interface; ``FOR UPDATE SKIP LOCKED``: concurrent claimers take
        disjoint rows without waiting)."""
        check_page(limit)
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds must be positive, got {lease_seconds!r}")
        until = now + timedelta(seconds=lease_seconds)
        with self._db.connection() as conn:
            rows = conn.execute(CLAIM, (owner, until, now, now, now, per_webhook, per_organiser, limit, now)
                                ).fetchall()
        rows.sort(key=lambda row: (row[8], row[9]))
        return tuple(ClaimedDelivery(*row[:8]) for row in rows)

    # -- waiting and closing -------------------------------------------------------

    def wait_for_events(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Block until the game's version passes ``after_seq`` (True) or
        ``timeout`` runs out (False).

        Woken by this store's LISTEN thread; the database is re-checked at
        least every ``fallback_poll`` seconds (every 0.25 s while the
        listener is reconnecting) in case a notification was lost."""
        deadline = time.monotonic() + max(0.0, timeout)
        listening = self._listener.ensure_started(min(max(timeout, 0.0), 1.0))
        with self._listener.watch(game_id):
            while True:
                if self._watched_version(game_id) > after_seq:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                step = self._fallback_poll if listening else 0.25
                if self._listener.wait(game_id, after_seq, min(remaining, step)):
                    return True
                listening = self._listener.listening

    def _watched_version(self, game_id: str) -> int:
        """The game's version, recording it in ``game_watches`` first if the
        listener has not (so that appends NOTIFY for it: migration 0008).
        The record and the read are one statement that locks the game row
        FOR SHARE: an append that was under way either commits first (and
        this read sees it) or fires its trigger after the record commits."""
        pid = self._listener.unrecorded_pid(game_id)
        if pid is None:
            return self.version(game_id)
        with self._db.connection() as conn:
            row = conn.execute(RECORD_WATCH, (game_id, pid)).fetchone()
        self._listener.recorded(game_id, pid)
        if row is None or row[0] is None:
            raise GameNotFound(game_id)
        return int(row[0])

    def close(self) -> None:
        """Stop the listener thread and close every pooled connection."""
        self._listener.close()
        if self._standby is not None:
            self._standby.close()
        self._db.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._db.closed
