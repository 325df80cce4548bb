"""The game catalogue and the event log, the same SQL on both backends (the
reads are :mod:`events.sql.reads`, on the store's own connections here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from events.recorders.event_log import EventStore
from events.records import JSON, AppendResult, GameNotFound, GameRecord, NewEvent, StoredEvent
from events.sql.database import Cursor, SqlRecorder
from events.sql.dialect import Dialect
from events.sql.reads import SqlReads
from events.sql.rows import EVENT_COLUMNS, GAME_COLUMNS, events_from_rows, game_from_row
from events.sql.token_history import hash_before

_REPLAY = (
    "SELECT " + ", ".join(f"e.{c.strip()}" for c in EVENT_COLUMNS.split(",")) + ", k.request_hash"
    " FROM idempotency_keys k JOIN events e ON e.game_id = k.game_id AND e.seq BETWEEN k.first_seq AND k.last_seq"
    " WHERE k.game_id = ? AND k.key = ? ORDER BY e.seq"
)


def replay(cur: Cursor, dialect: Dialect, game_id: str, idempotency_key: str) -> AppendResult | None:
    """What the append that used ``idempotency_key`` wrote (one statement, so
    one consistent read), or None if the key is unused."""
    rows = cur.execute(dialect.sql(_REPLAY), (game_id, idempotency_key)).fetchall()
    if not rows:
        return None
    return AppendResult(tuple(events_from_rows(rows, dialect)), replayed=True, request_hash=rows[0][-1])


class SqlCatalogue(SqlReads, SqlRecorder, EventStore):
    """:class:`EventStore` on a :class:`SqlDatabase`, but for the appends
    and metadata writes each backend does its own way."""

    def _read_rows(self, sql: str, params: Any = ()) -> list[Any]:
        return self._rows(sql, params)

    def _read_snapshot(self) -> AbstractContextManager[Cursor]:
        return self._snapshot()

    def _saw_head(self, game_id: str, version: int, digest: str) -> None:
        self._database.saw_head(game_id, version, digest)

    def create_game(
        self,
        game_id: str,
        game_type: str,
        metadata: Mapping[str, JSON],
        events: Sequence[NewEvent],
        status: str,
    ) -> tuple[StoredEvent, ...]:
        """Create the game row and append its first events atomically.

        Raises GameExists if the id is taken."""
        return self._create([(game_id, game_type, metadata, events, status)])[0]

    def lookup_idempotency(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """What an earlier append to this game with ``idempotency_key`` wrote
        (``replayed=True``, with its request_hash), or None if the key is unused."""
        with self._snapshot() as cur:
            return replay(cur, self.dialect, game_id, idempotency_key)

    def seat_hash_before(self, game_id: str, seat: int, epoch: int) -> str | None:
        """The hash the rotation of ``seat`` at ``epoch`` replaced (None: none kept)."""
        with self._snapshot() as cur:
            return hash_before(cur, self.dialect, game_id, seat, epoch)

    def version(self, game_id: str) -> int:
        """The seq of the game's last event (0 if none); GameNotFound if unknown."""
        rows = self._rows(self.dialect.sql("SELECT version FROM games WHERE game_id = ?"), (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return int(rows[0][0])

    def get_game(self, game_id: str) -> GameRecord:
        """The game's metadata row; GameNotFound if unknown."""
        rows = self._rows(
            self.dialect.sql(f"SELECT {GAME_COLUMNS}, last_hash FROM games WHERE game_id = ?"), (game_id,)
        )
        if not rows:
            raise GameNotFound(game_id)
        self._saw_head(game_id, int(rows[0][3]), rows[0][7])
        return game_from_row(rows[0], self.dialect)
