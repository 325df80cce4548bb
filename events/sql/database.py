"""One SQL database as the shared recorders see it, and their base.

A backend gives one :class:`SqlDatabase` (its connections, clock and
signer: :mod:`events.sqlite.database`, :mod:`events.postgres.database`);
every recorder of that backend holds it (:class:`SqlRecorder`), so that the
capabilities ``events.open_store`` hands out share one pool of connections
and a batch's games are created in the batch's own transaction."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from events.encoding.timestamps import Clock
from events.recorders.lifecycle import Database
from events.records import NewGame, StoredEvent
from events.sql.dialect import Dialect

#: A DB-API cursor (``sqlite3.Cursor`` or ``psycopg.Cursor``): their
#: signatures differ in details no shared caller uses.
Cursor = Any


class SqlDatabase(Database):
    """Reads, write transactions, snapshots, game creation and the clock of one database."""

    dialect: Dialect
    clock: Clock

    @abstractmethod
    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one autocommit statement (``sql`` in the driver's style)."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Cursor]:
        """A write transaction: committed on success, rolled back on any error."""

    @abstractmethod
    def snapshot(self) -> AbstractContextManager[Cursor]:
        """A read-only transaction seeing one consistent state."""

    @abstractmethod
    def create(
        self, games: Sequence[NewGame], first: Callable[[Cursor], None] | None = None
    ) -> list[tuple[StoredEvent, ...]]:
        """Create ``games`` in one transaction; ``first`` writes more rows in
        that same transaction before them."""

    @abstractmethod
    def database_time(self) -> datetime:
        """The database's clock, read now (see :mod:`events.recorders.deadlines`)."""

    @abstractmethod
    def estimated_time(self) -> datetime:
        """The database's clock as this process knows it, without a round trip."""

    def saw_head(self, game_id: str, version: int, digest: str) -> None:
        """Event ``version`` of the game hashes to ``digest`` (read just now): a
        backend that chains appends on heads it remembers notes it."""


class SqlRecorder:
    """A capability's SQL on a :class:`SqlDatabase` it shares with the
    other capabilities of its store (the statements call these hooks)."""

    def __init__(self, database: SqlDatabase) -> None:
        self._database = database
        self.dialect = database.dialect

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._database.rows(sql, params)

    def _transaction(self) -> AbstractContextManager[Cursor]:
        return self._database.transaction()

    def _snapshot(self) -> AbstractContextManager[Cursor]:
        return self._database.snapshot()

    def _create(
        self, games: Sequence[NewGame], first: Callable[[Cursor], None] | None = None
    ) -> list[tuple[StoredEvent, ...]]:
        return self._database.create(games, first)

    def _clock(self) -> datetime:
        return self._database.clock()
