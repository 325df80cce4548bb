"""The embedded store: one SQLite file, the default when no database URL is
configured.

* WAL mode (readers never block the writer), a busy timeout, foreign keys
  on; connections per thread (:mod:`events.sqlite.connection`).  Every
  write is an explicit ``BEGIN IMMEDIATE`` transaction, which takes the
  database write lock up front, so writers in other threads *and processes*
  serialise.  Uses after ``close`` raise StoreUnavailable.
* Global positions are ``max(position) + 1`` assigned inside that write
  transaction: transactions commit one at a time in lock order, so positions
  become visible strictly in increasing order (a reader that has seen
  position P never later sees a new event at or below P).
* Reads that need a consistent picture (``verify_chain``, delivery pages)
  run in one deferred transaction, i.e. one WAL snapshot.
* ``wait_for_events`` polls the game's version with a short sleep, which also
  sees writes by other processes.
* The schema is applied on open from ``events/migrations/sqlite/*.sql``.
* Rate-limit counters and event-stream places shared by the server's
  processes live in the file too (:mod:`events.sqlite.counts`).
* Claims of deliveries run under ``BEGIN IMMEDIATE`` too, after a lock-free
  look for due work, so idle dispatchers never take the write lock.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from events.database import Database
from events.encoding.timestamps import Clock, format_timestamp, system_clock
from events.integrity.sealing import SealedEvent, number
from events.integrity.signing import Signer
from events.migrations.apply import migrate_sqlite
from events.migrations.tokenkeys import Rekey
from events.recorders.deliveries import CLAIM_UNCAPPED, ClaimedDelivery
from events.records import (
    AppendResult,
    GameExists,
    GameNotFound,
    GuardFailed,
    IntegrityError,
    MetadataGuard,
    NewEvent,
    NewGame,
    OutsideDeadline,
    StaleVersion,
    StoredEvent,
    TokenChange,
)
from events.sql.bot_turns import SqlBotTurnIndex
from events.sql.catalogue import SqlCatalogue, replay
from events.sql.deadlines import SqlDeadlineIndex
from events.sql.deliveries import FAIR_CLAIM, SqlDeliveryLog
from events.sql.dialect import SQLITE, loads_object
from events.sql.quarantine import SqlQuarantine
from events.sql.rows import (
    check_append_args,
    check_page,
    event_params,
    game_params,
    metadata_json,
    prepare_games,
)
from events.sql.tickets import SqlStreamTickets
from events.sql.tournaments import SqlTournaments
from events.sql.transparency_log import SqlTransparencyLog
from events.sqlite.connection import SqliteConnections
from events.sqlite.counts import SqliteCounts

_INSERT_EVENT = (
    "INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,"
    " idempotency_key, prev_hash, hash, signature, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_GAME = (
    "INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at, metadata)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
#: Pending deliveries due at ``?`` whose lease (if any) ran out at ``?``, of active webhooks.
_DUE = (
    "FROM webhook_deliveries d JOIN webhooks w ON w.webhook_id = d.webhook_id"
    " WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)"
    " AND w.active = 1"
)


def _json_path(guard: MetadataGuard | None) -> str | None:
    """The SQLite JSON path of a guard (``$."seat_token_hashes"[2]``), None without one."""
    if guard is None:
        return None
    parts = ["$"]
    for step in guard.path:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif '"' in step:
            raise ValueError(f"a metadata guard key may not contain '\"': {step!r}")
        else:
            parts.append(f'."{step}"')
    return "".join(parts)


def _event_rows(sealed: Sequence[SealedEvent], first_position: int) -> list[tuple[Any, ...]]:
    return [(first_position + i, *event_params(e)) for i, e in enumerate(sealed)]


class SqliteStore(
    SqlCatalogue, SqlTournaments, SqlDeliveryLog, SqlDeadlineIndex, SqlBotTurnIndex, SqlQuarantine, SqliteCounts,
    SqlTransparencyLog, SqlStreamTickets, Database,
):
    """The event log, tournaments, delivery log and bot-turn index on a SQLite
    file, and the counts the server's processes share (see the module docs)."""

    dialect = SQLITE

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = 30.0,
        synchronous: str = "NORMAL",
        poll_interval: float = 0.02,
        clock: Clock = system_clock,
        signer: Signer | None = None,
        rekey: Rekey | None = None,
    ) -> None:
        """Open (creating if needed) the database at ``path`` and apply its schema
        (keying old token hashes with ``rekey``: :mod:`events.migrations.tokenkeys`).

        ``signer`` signs every event written (:mod:`events.integrity.signing`; the
        service always passes one; without, events are stored unsigned).

        ``synchronous`` is SQLite's durability setting (``NORMAL``: a commit
        survives a process crash, the last ones may be lost on power loss;
        ``FULL``: fsync per commit).  Raises StoreUnavailable if the file
        cannot be opened."""
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous mode {synchronous!r}")
        self._db = SqliteConnections(str(path), busy_timeout, synchronous.upper())
        self._poll_interval = poll_interval
        self._clock = clock
        self._signer = signer
        with self._db.using() as conn:
            migrate_sqlite(conn, rekey)

    @property
    def path(self) -> str:
        """The database file."""
        return self._db.path

    # -- the hooks of the shared SQL -------------------------------------------

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._db.read(sql, params)

    def _transaction(self) -> Any:
        return self._db.transaction()

    @contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Cursor]:
        with self._db.transaction("DEFERRED") as cur:
            yield cur

    def _create(
        self, games: Sequence[NewGame], first: Callable[[sqlite3.Cursor], None] | None = None
    ) -> list[tuple[StoredEvent, ...]]:
        now = format_timestamp(self._clock())
        prepared = prepare_games(games, now, self._signer)
        created: list[tuple[StoredEvent, ...]] = []
        with self._db.transaction() as cur:
            if first is not None:
                first(cur)
            position = cur.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0] + 1
            for game in prepared:
                if cur.execute("SELECT 1 FROM games WHERE game_id = ?", (game.game_id,)).fetchone():
                    raise GameExists(f"game {game.game_id!r} already exists")
                cur.execute(_INSERT_GAME, game_params(game, now))
                cur.executemany(_INSERT_EVENT, _event_rows(game.events, position))
                created.append(tuple(e.at(position + i) for i, e in enumerate(game.events)))
                position += len(game.events)
        return created

    # -- writes ------------------------------------------------------------------

    def database_time(self) -> datetime:
        """The process's clock: with SQLite the process is the database."""
        return self._clock()

    def estimated_time(self) -> datetime:
        """The database's clock, which is this process's: nothing to estimate."""
        return self._clock()

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
        token: TokenChange | None = None,
    ) -> AppendResult:
        """Append ``events`` atomically after ``expected_version`` (see
        :meth:`EventStore.append`); ``ValueError`` for an empty or malformed batch.
        The time is read holding the write lock, so it is the time of the append."""
        check_append_args(events, expected_version, status, token)
        with self._db.transaction() as cur:
            moment = self._clock()
            now = format_timestamp(moment)
            pending = number(game_id, expected_version, events, now, idempotency_key)
            row = cur.execute(
                "SELECT version, last_hash, (SELECT coalesce(max(position), 0) FROM events), json_extract(metadata, ?)"
                " FROM games WHERE game_id = ?",
                (_json_path(guard), game_id),
            ).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            version, prev_hash, position, guarded = row
            if guard is not None and guarded != guard.value:
                raise GuardFailed(game_id)
            if idempotency_key is not None:
                replayed = replay(cur, self.dialect, game_id, idempotency_key)
                if replayed is not None:
                    return replayed
            if version != expected_version:
                raise StaleVersion(game_id, expected_version, version)
            if not_after is not None and moment > not_after:
                raise OutsideDeadline(game_id, expected_version, "late")
            if not_before is not None and moment < not_before:
                raise OutsideDeadline(game_id, expected_version, "early")
            rows: list[tuple[Any, ...]] = []
            written: list[StoredEvent] = []
            signer = self._signer
            key_id = None if signer is None else signer.key_id
            for p in pending:
                digest = p.digest(prev_hash)
                signature = None if signer is None else signer.sign(digest)
                position += 1
                rows.append(
                    (
                        position,
                        game_id,
                        p.seq,
                        p.type,
                        p.schema_version,
                        p.payload_json,
                        now,
                        p.seat,
                        idempotency_key,
                        prev_hash,
                        digest,
                        signature,
                        key_id,
                    )
                )
                written.append(p.stored(prev_hash, digest, position, signature, key_id))
                prev_hash = digest
            if len(rows) == 1:
                cur.execute(_INSERT_EVENT, rows[0])
            else:
                cur.executemany(_INSERT_EVENT, rows)
            cur.execute(
                "UPDATE games SET version = ?, last_hash = ?, updated_at = ?, status = coalesce(?, status)"
                " WHERE game_id = ?",
                (pending[-1].seq, prev_hash, now, status, game_id),
            )
            if token is not None:
                _change_token(cur, game_id, token)
            if idempotency_key is not None:
                cur.execute(
                    "INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, idempotency_key, request_hash, pending[0].seq, pending[-1].seq, now),
                )
        return AppendResult(tuple(written), replayed=False, request_hash=request_hash)

    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int,
        per_webhook: int = CLAIM_UNCAPPED, per_organiser: int = CLAIM_UNCAPPED,
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` due deliveries to ``owner``, fairly (see the interface)."""
        check_page(limit)
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds must be positive, got {lease_seconds!r}")
        stamp = format_timestamp(now)
        if not self._db.read(f"SELECT 1 {_DUE} LIMIT 1", (stamp, stamp)):
            return ()  # nothing due: no write lock taken
        until = format_timestamp(now + timedelta(seconds=lease_seconds))
        with self._db.transaction() as cur:
            rows = cur.execute(
                "SELECT d.delivery_id, d.webhook_id, d.game_id, d.event, d.body, w.url, w.secret, d.attempts"
                " FROM webhook_deliveries d JOIN webhooks w ON w.webhook_id = d.webhook_id"
                f" WHERE d.delivery_no IN ({FAIR_CLAIM}) ORDER BY d.next_attempt_at, d.delivery_no",
                (stamp, stamp, stamp, per_webhook, per_organiser, limit),
            ).fetchall()
            cur.executemany(
                "UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE delivery_id = ?",
                [(owner, until, row[0]) for row in rows],
            )
        return tuple(ClaimedDelivery(*row) for row in rows)

    # -- waiting and closing -------------------------------------------------------

    def wait_for_events(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Poll the game's version every ``poll_interval`` seconds until it
        passes ``after_seq`` (True) or ``timeout`` runs out (False)."""
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            if self.version(game_id) > after_seq:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(min(self._poll_interval, remaining))

    def close(self) -> None:
        """Close every connection this store opened (in any thread), each once
        the statement running on it (if any) is over."""
        self._db.close()

    @property
    def open_connections(self) -> int:
        """Connections open now: one per thread that used the store and still runs."""
        return self._db.open_connections

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._db.closed

    def without_waiting(self) -> AbstractContextManager[None]:
        """Calls made in this block raise :class:`~events.sqlite.connection.WouldWait`
        (nothing written) when their first write transaction finds the write
        lock taken, instead of waiting for it (see ``SqliteConnections.without_waiting``)."""
        return self._db.without_waiting()




def _change_token(cur: Any, game_id: str, token: TokenChange) -> None:
    """Set a seat's token hash (inside the append that records its rotation); a seat with no token to
    rotate (a bot seat, a seat the game does not have) refuses the whole append."""
    row = cur.execute("SELECT metadata FROM games WHERE game_id = ?", (game_id,)).fetchone()
    metadata = loads_object(row[0])
    hashes = metadata.get("seat_token_hashes")
    if not isinstance(hashes, list) or not token.seat < len(hashes) or not isinstance(hashes[token.seat], str):
        raise IntegrityError(f"game {game_id}: seat {token.seat} has no token to rotate")
    hashes[token.seat] = token.token_hash
    cur.execute("UPDATE games SET metadata = ? WHERE game_id = ?", (metadata_json(metadata), game_id))
