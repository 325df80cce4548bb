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
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from events.encoding.timestamps import Clock, format_timestamp, system_clock
from events.integrity.sealing import SealedEvent
from events.integrity.signing import Signer
from events.migrations.apply import migrate_sqlite
from events.migrations.keying import ServerKeying
from events.records import GameExists, NewGame, StoredEvent
from events.sql.database import SqlDatabase
from events.sql.dialect import SQLITE
from events.sql.rows import event_params, game_params, prepare_games
from events.sqlite.connection import SqliteConnections

_INSERT_EVENT = (
    "INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,"
    " idempotency_key, prev_hash, hash, signature, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_GAME = (
    "INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at, metadata)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _event_rows(sealed: Sequence[SealedEvent], first_position: int) -> list[tuple[Any, ...]]:
    return [(first_position + i, *event_params(e)) for i, e in enumerate(sealed)]


class SqliteDatabase(SqlDatabase):
    """A SQLite file, its connections (one per thread), clock and signer: what
    every recorder of the embedded store shares (see the module docs)."""

    dialect = SQLITE

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = 30.0,
        synchronous: str = "NORMAL",
        clock: Clock = system_clock,
        signer: Signer | None = None,
        keying: ServerKeying | None = None,
    ) -> None:
        """Open (creating if needed) the database at ``path`` and apply its schema
        (converting what was stored before with ``keying``: :mod:`events.migrations.keying`).

        ``signer`` signs every event written (:mod:`events.integrity.signing`; the
        service always passes one; without, events are stored unsigned).

        ``synchronous`` is SQLite's durability setting (``NORMAL``: a commit
        survives a process crash, the last ones may be lost on power loss;
        ``FULL``: fsync per commit).  Raises StoreUnavailable if the file
        cannot be opened."""
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous mode {synchronous!r}")
        self.connections = SqliteConnections(str(path), busy_timeout, synchronous.upper())
        self.clock = clock
        self.signer = signer
        with self.connections.using() as conn:
            migrate_sqlite(conn, keying)

    @property
    def path(self) -> str:
        """The database file."""
        return self.connections.path

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.connections.read(sql, params)

    def transaction(self) -> Any:
        return self.connections.transaction()

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Cursor]:
        with self.connections.transaction("DEFERRED") as cur:
            yield cur

    def create(
        self, games: Sequence[NewGame], first: Callable[[sqlite3.Cursor], None] | None = None
    ) -> list[tuple[StoredEvent, ...]]:
        now = format_timestamp(self.clock())
        prepared = prepare_games(games, now, self.signer)
        created: list[tuple[StoredEvent, ...]] = []
        with self.connections.transaction() as cur:
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

    def database_time(self) -> datetime:
        """The process's clock: with SQLite the process is the database."""
        return self.clock()

    def estimated_time(self) -> datetime:
        """The database's clock, which is this process's: nothing to estimate."""
        return self.clock()

    def ping(self) -> None:
        """Raise StoreUnavailable if the file cannot be read."""
        self.rows("SELECT 1")

    def close(self) -> None:
        """Close every connection this store opened (in any thread), each once
        the statement running on it (if any) is over."""
        self.connections.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self.connections.closed

    @property
    def open_connections(self) -> int:
        """Connections open now: one per thread that used the store and still runs."""
        return self.connections.open_connections

    def without_waiting(self) -> AbstractContextManager[None]:
        """Calls made in this block raise :class:`~events.sqlite.connection.WouldWait`
        (nothing written) when their first write transaction finds the write
        lock taken, instead of waiting for it (see ``SqliteConnections.without_waiting``)."""
        return self.connections.without_waiting()
