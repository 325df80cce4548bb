"""Event storage: append-only, hash-chained game events.

``open_store(url)`` (:mod:`events.factory`) picks the backend: PostgreSQL for
production (``postgresql://...``), an embedded SQLite file otherwise, and
returns :class:`~events.recorders.capabilities.Stores`: one database's
capabilities (the event log, tournaments, deliveries, deadlines, …), each a
recorder of :mod:`events.recorders`.  Records and errors are in
:mod:`events.records`; hashing, signatures and the transparency log in
:mod:`events.integrity`; encodings in :mod:`events.encoding`.
"""

from __future__ import annotations

from events.factory import open_store
from events.recorders.capabilities import DEFAULT_SQLITE_NAME, Stores

__all__ = ["DEFAULT_SQLITE_NAME", "Stores", "open_store"]
