"""Event storage: append-only, hash-chained game events.

``open_store(url)`` picks the backend: PostgreSQL for production
(``postgresql://...``), an embedded SQLite file otherwise, and returns a
:class:`~events.database.Database`: the event log and game catalogue
(:mod:`events.store`, with the errors), tournaments (:mod:`events.tournaments`)
and the webhook delivery log (:mod:`events.deliveries`).  Hashing is in
:mod:`events.envelope`; domain <-> stored conversion (with upcasting) in
:mod:`events.codec`.
"""

from __future__ import annotations

from pathlib import Path

from events.database import Database
from events.store import EventStore

DEFAULT_SQLITE_NAME = "cablecar.sqlite3"


def open_store(url: str | None, data_dir: str | Path = "data") -> Database:
    """Open the event store named by ``url``.

    * ``postgresql://...`` or ``postgres://...``: PostgreSQL (schema migrated
      on first use);
    * ``sqlite:///path/to/file``: that SQLite file (its folder is created);
    * ``None`` (or empty): the SQLite file ``<data_dir>/cablecar.sqlite3``.

    Raises ``ValueError`` for any other scheme and StoreUnavailable if a
    SQLite file cannot be opened."""
    if url and url.startswith(("postgresql://", "postgres://")):
        from events.postgres import PostgresStore

        return PostgresStore(url)
    if url and url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///") :])
    elif not url:
        path = Path(data_dir) / DEFAULT_SQLITE_NAME
    else:
        raise ValueError(f"unsupported event store URL {url!r} (use postgresql://... or sqlite:///path)")
    from events.sqlite import SqliteStore

    path.parent.mkdir(parents=True, exist_ok=True)
    return SqliteStore(path)


__all__ = ["DEFAULT_SQLITE_NAME", "Database", "EventStore", "open_store"]
