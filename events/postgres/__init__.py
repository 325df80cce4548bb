"""The PostgreSQL backend (see :mod:`events.postgres.store`)."""

from events.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
