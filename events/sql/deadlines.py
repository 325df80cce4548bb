"""The deadline index on both SQL backends (the same statements: times are
passed in, taken from :meth:`~events.recorders.deadlines.DeadlineIndex.database_time`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from events.recorders.deadlines import DeadlineIndex
from events.sql.database import SqlRecorder


class SqlDeadlineIndex(SqlRecorder, DeadlineIndex):
    """:class:`DeadlineIndex` on a :class:`SqlDatabase`."""

    def database_time(self) -> datetime:
        return self._database.database_time()

    def estimated_time(self) -> datetime:
        return self._database.estimated_time()

    def set_deadline(self, game_id: str, version: int, due: datetime | None) -> None:
        d = self.dialect
        stamp = None if due is None else d.time_param(due)
        with self._transaction() as cur:
            cur.execute(
                d.sql(
                    "INSERT INTO deadlines (game_id, version, due_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, due_at = excluded.due_at"
                    " WHERE deadlines.version < excluded.version"
                ),
                (game_id, version, stamp),
            )

    def due_games(self, now: datetime, limit: int = 100) -> list[str]:
        d = self.dialect
        rows = self._rows(
            d.sql("SELECT game_id FROM deadlines WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?"),
            (d.time_param(now), limit),
        )
        return [str(row[0]) for row in rows]

    def hold_lease(self, name: str, owner: str, now: datetime, seconds: float) -> bool:
        d = self.dialect
        until = d.time_param(now + timedelta(seconds=seconds))
        # One statement: taken when absent, renewed when ours, taken over when lapsed; a row comes
        # back only then (the leases table is never read outside this statement).
        with self._transaction() as cur:
            held = cur.execute(
                d.sql(
                    "INSERT INTO leases (name, owner, until) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE"
                    " SET owner = excluded.owner, until = excluded.until"
                    " WHERE leases.owner = excluded.owner OR leases.until < ? RETURNING owner"
                ),
                (name, owner, until, d.time_param(now)),
            ).fetchone()
        return held is not None and held[0] == owner
