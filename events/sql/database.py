"""The hooks a SQL backend gives the shared catalogue, tournament and
delivery code: reads, write transactions, snapshots and game creation."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from events.encoding.timestamps import Clock
from events.records import NewGame, StoredEvent
from events.sql.dialect import Dialect

#: A DB-API cursor (``sqlite3.Cursor`` or ``psycopg.Cursor``): their
#: signatures differ in details no shared caller uses.
Cursor = Any


class SqlDatabase(ABC):
    """One SQL database as the shared code sees it (see the module docs)."""

    dialect: Dialect
    _clock: Clock

    @abstractmethod
    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one autocommit statement (``sql`` in the driver's style)."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[Cursor]:
        """A write transaction: committed on success, rolled back on any error."""

    @abstractmethod
    def _snapshot(self) -> AbstractContextManager[Cursor]:
        """A read-only transaction seeing one consistent state."""

    @abstractmethod
    def _create(
        self, games: Sequence[NewGame], first: Callable[[Cursor], None] | None = None
    ) -> list[tuple[StoredEvent, ...]]:
        """Create ``games`` in one transaction; ``first`` writes more rows in
        that same transaction before them."""
