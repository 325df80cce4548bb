"""The PostgreSQL backend (see :mod:`events.postgres.store`)."""

from events.postgres.store import POSITION_LOCK_KEY, PostgresStore

__all__ = ["POSITION_LOCK_KEY", "PostgresStore"]
