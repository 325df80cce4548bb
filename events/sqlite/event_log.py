"""The embedded store's event log: the shared catalogue SQL
(:mod:`events.sql.catalogue`) and SQLite's own append, under the file's
write lock (see :mod:`events.sqlite.database`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from events.encoding.timestamps import format_timestamp
from events.integrity.sealing import number
from events.records import (
    PLAIN,
    AppendOptions,
    AppendResult,
    GameNotFound,
    GuardFailed,
    IntegrityError,
    MetadataGuard,
    NewEvent,
    OutsideDeadline,
    StaleVersion,
    StoredEvent,
    TokenChange,
)
from events.sql.catalogue import SqlCatalogue, replay
from events.sql.dialect import SQLITE, loads_object
from events.sql.rows import check_append_args, metadata_json
from events.sql.token_history import record_rotation
from events.sqlite.database import _INSERT_EVENT, SqliteDatabase


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


class SqliteEventLog(SqlCatalogue):
    """:class:`~events.recorders.event_log.EventStore` on a SQLite file."""

    def __init__(self, database: SqliteDatabase, poll_interval: float = 0.02) -> None:
        super().__init__(database)
        self._database: SqliteDatabase = database
        self._poll_interval = poll_interval

    def append(
        self, game_id: str, expected_version: int, events: Sequence[NewEvent], options: AppendOptions = PLAIN
    ) -> AppendResult:
        """Append ``events`` atomically after ``expected_version`` (see
        :meth:`EventStore.append`); ``ValueError`` for an empty or malformed batch.
        The time is read holding the write lock, so it is the time of the append."""
        idempotency_key, request_hash, status = options.idempotency_key, options.request_hash, options.status
        guard, token = options.guard, options.token
        not_before, not_after = options.not_before, options.not_after
        check_append_args(events, expected_version, status, token)
        with self._database.connections.transaction() as cur:
            moment = self._database.clock()
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
            signer = self._database.signer
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
                _change_token(cur, game_id, token, pending[-1].seq)
            if idempotency_key is not None:
                cur.execute(
                    "INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, idempotency_key, request_hash, pending[0].seq, pending[-1].seq, now),
                )
        return AppendResult(tuple(written), replayed=False, request_hash=request_hash)

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


def _change_token(cur: Any, game_id: str, token: TokenChange, epoch: int) -> None:
    """Set a seat's token hash (inside the append that records its rotation, whose seq is ``epoch``),
    keeping the one it replaces (:mod:`events.sql.token_history`); a seat with no token to rotate (a bot
    seat, a seat the game does not have) refuses the whole append."""
    row = cur.execute("SELECT metadata FROM games WHERE game_id = ?", (game_id,)).fetchone()
    metadata = loads_object(row[0])
    hashes = metadata.get("seat_token_hashes")
    if not isinstance(hashes, list) or not token.seat < len(hashes) or not isinstance(hashes[token.seat], str):
        raise IntegrityError(f"game {game_id}: seat {token.seat} has no token to rotate")
    record_rotation(cur, SQLITE, game_id, token.seat, epoch, hashes[token.seat])
    hashes[token.seat] = token.token_hash
    cur.execute("UPDATE games SET metadata = ? WHERE game_id = ?", (metadata_json(metadata), game_id))
