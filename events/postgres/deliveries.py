"""The production store's webhook delivery log: the shared SQL
(:mod:`events.sql.deliveries`) and a claim with ``FOR UPDATE SKIP LOCKED``,
so dispatchers on any number of hosts take disjoint deliveries without
waiting on each other."""

from __future__ import annotations

from datetime import datetime, timedelta

from events.postgres.database import PostgresDatabase
from events.postgres.statements import CLAIM
from events.recorders.deliveries import CLAIM_UNCAPPED, ClaimedDelivery
from events.sql.deliveries import SqlDeliveryLog
from events.sql.rows import check_page


class PostgresDeliveries(SqlDeliveryLog):
    """:class:`~events.recorders.deliveries.DeliveryLog` on PostgreSQL."""

    def __init__(self, database: PostgresDatabase) -> None:
        super().__init__(database)
        self._database: PostgresDatabase = database

    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int,
        per_webhook: int = CLAIM_UNCAPPED, per_organiser: int = CLAIM_UNCAPPED,
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` due deliveries to ``owner``, fairly (see the
        interface; ``FOR UPDATE SKIP LOCKED``: concurrent claimers take
        disjoint rows without waiting)."""
        check_page(limit)
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds must be positive, got {lease_seconds!r}")
        until = now + timedelta(seconds=lease_seconds)
        with self._database.connections.connection() as conn:
            rows = conn.execute(CLAIM, (owner, until, now, now, now, per_webhook, per_organiser, limit, now)
                                ).fetchall()
        rows.sort(key=lambda row: (row[10], row[11]))
        return tuple(ClaimedDelivery(*row[:10]) for row in rows)
