"""The embedded store's :class:`~events.recorders.counts.SharedCounts`: two small
tables in the database file (migration ``0005_shared_counts.sql``), each
change one short ``BEGIN IMMEDIATE`` transaction, so every process on the
file counts the same.  Expired rows are deleted by the writes themselves,
at most once a minute per process."""

from __future__ import annotations

import secrets
import time
from typing import Any

from events.recorders.counts import SharedCounts
from events.sqlite.connection import SqliteConnections

#: seconds between two sweeps of expired rows by one process
_SWEEP_EVERY = 60.0


class SqliteCounts(SharedCounts):
    """Counters and places in the SQLite file, on the store's connections."""

    def __init__(self, connections: SqliteConnections) -> None:
        self._db = connections
        self._counts_swept_at = 0.0

    def _sweep(self, cur: Any, now: float) -> None:
        if time.monotonic() - self._counts_swept_at < _SWEEP_EVERY:
            return
        self._counts_swept_at = time.monotonic()
        cur.execute("DELETE FROM shared_counts WHERE expires_at < ?", (now,))
        cur.execute("DELETE FROM shared_places WHERE until < ?", (now,))

    def add_count(self, key: str, window: int, cost: int, expires_at: float, now: float) -> int:
        """Add ``cost`` to the counter of ``key`` in ``window``; its new total."""
        with self._db.transaction() as cur:
            self._sweep(cur, now)
            row = cur.execute(
                "INSERT INTO shared_counts (key, window_no, count, expires_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (key, window_no) DO UPDATE SET count = count + excluded.count RETURNING count",
                (key, window, cost, expires_at),
            ).fetchone()
        return int(row[0])

    def take_place(self, group: str, holder: str, limit: int, until: float, now: float) -> str | None:
        """A place for ``holder`` in ``group`` unless it holds ``limit`` already."""
        place_id = secrets.token_hex(12)
        with self._db.transaction() as cur:
            self._sweep(cur, now)
            held = cur.execute(
                "SELECT count(*) FROM shared_places WHERE grp = ? AND holder = ? AND until >= ?", (group, holder, now)
            ).fetchone()[0]
            if held >= limit:
                return None
            cur.execute(
                "INSERT INTO shared_places (place_id, grp, holder, until) VALUES (?, ?, ?, ?)",
                (place_id, group, holder, until),
            )
        return place_id

    def renew_place(self, place_id: str, until: float) -> None:
        """Hold the place until ``until``."""
        with self._db.transaction() as cur:
            cur.execute("UPDATE shared_places SET until = ? WHERE place_id = ?", (until, place_id))

    def free_place(self, place_id: str) -> None:
        """Give the place back."""
        with self._db.transaction() as cur:
            cur.execute("DELETE FROM shared_places WHERE place_id = ?", (place_id,))
