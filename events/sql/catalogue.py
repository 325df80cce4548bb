"""The event-log reads and the game catalogue, the same SQL on both backends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from events.cursor import decode_cursor, encode_cursor
from events.envelope import verify_events
from events.sql.database import Cursor, SqlDatabase
from events.sql.dialect import Dialect
from events.sql.rows import EVENT_COLUMNS, GAME_COLUMNS, check_page, events_from_rows, game_from_row
from events.store import (
    JSON,
    AppendResult,
    ChainReport,
    EventStore,
    GameNotFound,
    GamePage,
    GameRecord,
    NewEvent,
    StoredEvent,
)

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


class SqlCatalogue(SqlDatabase, EventStore):
    """:class:`EventStore` on a :class:`SqlDatabase`, but for the appends
    and metadata writes each backend does its own way."""

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

    def load(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of a game with ``seq > after``, ascending, at most ``limit``
        (GameNotFound for an unknown game)."""
        check_page(limit)
        d = self.dialect
        rows = self._rows(
            d.sql(f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?"),
            (game_id, after, d.unlimited if limit is None else limit),
        )
        if not rows:
            self.version(game_id)  # raises GameNotFound for an unknown game
            return []
        self._saw_head(game_id, rows[-1][1], rows[-1][10])
        return events_from_rows(rows, d)

    def _saw_head(self, game_id: str, version: int, digest: str) -> None:
        """Hook: event ``version`` of the game hashes to ``digest`` (read just now)."""

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

    def list_games(
        self,
        status: str | None = None,
        game_type: str | None = None,
        batch: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> GamePage:
        """Games newest first, filtered; ``batch`` matches ``metadata['batch']``.

        Raises InvalidCursor for a cursor this store did not hand out."""
        check_page(limit)
        d = self.dialect
        where: list[str] = []
        params: list[Any] = []
        for column, value in (("status", status), ("game_type", game_type), (d.batch_of_game, batch)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if cursor is not None:
            where.append("game_no < ?")
            params.append(decode_cursor(cursor))
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self._rows(
            d.sql(f"SELECT {GAME_COLUMNS}, game_no FROM games {clause} ORDER BY game_no DESC LIMIT ?"),
            (*params, limit + 1),
        )
        page = rows[:limit]
        next_cursor = encode_cursor(page[-1][7]) if len(rows) > limit else None
        return GamePage(tuple(game_from_row(row, d) for row in page), next_cursor)

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """The global log: every game's events with ``position > after_position``
        (never out of order: see each backend's position assignment)."""
        check_page(limit)
        d = self.dialect
        rows = self._rows(
            d.sql(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE position > ? AND {d.readable_position}"
                " ORDER BY position LIMIT ?"
            ),
            (after_position, limit),
        )
        return events_from_rows(rows, d)

    def verify_chain(self, game_id: str) -> ChainReport:
        """Recompute the game's chain from one consistent snapshot and report
        edited, removed, reordered or injected events."""
        d = self.dialect
        with self._snapshot() as cur:
            row = cur.execute(d.sql("SELECT version FROM games WHERE game_id = ?"), (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            rows = cur.execute(
                d.sql(f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? ORDER BY seq"), (game_id,)
            ).fetchall()
        return verify_events(game_id, events_from_rows(rows, d), expected_count=int(row[0]))

    def ping(self) -> None:
        """Raise StoreUnavailable if the database cannot be reached."""
        self._rows("SELECT 1")


