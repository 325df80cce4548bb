"""The reads of the event log and the game catalogue (:class:`EventReader`),
the same SQL on both backends and on a PostgreSQL standby."""

from __future__ import annotations

from abc import abstractmethod
from contextlib import AbstractContextManager
from typing import Any

from events.encoding.cursor import decode_cursor, encode_cursor
from events.integrity.envelope import verify_events
from events.integrity.lifetimes import SERVER_STREAM
from events.recorders.event_log import EventReader
from events.records import ChainReport, GameNotFound, GamePage, StoredEvent
from events.sql.database import Cursor
from events.sql.dialect import Dialect
from events.sql.rows import EVENT_COLUMNS, GAME_COLUMNS, check_page, events_from_rows, game_from_row


class SqlReads(EventReader):
    """:class:`EventReader` on two hooks: where its statements and its
    consistent snapshots run (the store's own connections, or a standby's)."""

    dialect: Dialect

    @abstractmethod
    def _read_rows(self, sql: str, params: Any = ()) -> list[Any]:
        """The rows of one autocommit read statement (``sql`` in the driver's style)."""

    @abstractmethod
    def _read_snapshot(self) -> AbstractContextManager[Cursor]:
        """A read-only transaction seeing one consistent state."""

    def load(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of a game with ``seq > after``, ascending, at most ``limit``
        (GameNotFound for an unknown game)."""
        check_page(limit)
        d = self.dialect
        rows = self._read_rows(
            d.sql(f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?"),
            (game_id, after, d.unlimited if limit is None else limit),
        )
        if not rows:
            if not self._read_rows(d.sql("SELECT 1 FROM games WHERE game_id = ?"), (game_id,)):
                raise GameNotFound(game_id)
            return []
        self._saw_head(game_id, rows[-1][1], rows[-1][10])
        return events_from_rows(rows, d)

    def _saw_head(self, game_id: str, version: int, digest: str) -> None:
        """Hook: event ``version`` of the game hashes to ``digest`` (read just now)."""

    def list_games(
        self,
        status: str | None = None,
        game_type: str | None = None,
        batch: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        ref: str | None = None,
    ) -> GamePage:
        """Games newest first, filtered; ``batch`` matches ``metadata['batch']``, ``ref`` ``metadata['ref']``
        (never the server's own stream, :mod:`events.integrity.lifetimes`).

        Raises InvalidCursor for a cursor this store did not hand out."""
        check_page(limit)
        d = self.dialect
        where: list[str] = ["game_id <> ?"]  # the server's own stream is no game
        params: list[Any] = [SERVER_STREAM]
        for column, value in (("status", status), ("game_type", game_type), (d.batch_of_game, batch),
                              (d.ref_of_game, ref)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if cursor is not None:
            where.append("game_no < ?")
            params.append(decode_cursor(cursor))
        clause = f"WHERE {' AND '.join(where)}"
        rows = self._read_rows(
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
        rows = self._read_rows(
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
        with self._read_snapshot() as cur:
            row = cur.execute(d.sql("SELECT version FROM games WHERE game_id = ?"), (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            rows = cur.execute(
                d.sql(f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? ORDER BY seq"), (game_id,)
            ).fetchall()
        return verify_events(game_id, events_from_rows(rows, d), expected_count=int(row[0]))
