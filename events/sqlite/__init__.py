"""The SQLite backend (see :mod:`events.sqlite.store`)."""

from events.sqlite.store import SqliteStore

__all__ = ["SqliteStore"]
