"""The embedded store's webhook delivery log: the shared SQL
(:mod:`events.sql.deliveries`) and SQLite's own claim, under
``BEGIN IMMEDIATE`` after a lock-free look for due work, so idle dispatchers
never take the write lock."""

from __future__ import annotations

from datetime import datetime, timedelta

from events.encoding.timestamps import format_timestamp
from events.recorders.deliveries import CLAIM_UNCAPPED, ClaimedDelivery
from events.sql.deliveries import FAIR_CLAIM, SqlDeliveryLog
from events.sql.rows import check_page

#: Pending deliveries due at ``?`` whose lease (if any) ran out at ``?``, of active webhooks.
_DUE = (
    "FROM webhook_deliveries d JOIN webhooks w ON w.webhook_id = d.webhook_id"
    " WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)"
    " AND w.active = 1"
)



class SqliteDeliveries(SqlDeliveryLog):
    """:class:`~events.recorders.deliveries.DeliveryLog` on a SQLite file."""

    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int,
        per_webhook: int = CLAIM_UNCAPPED, per_organiser: int = CLAIM_UNCAPPED,
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` due deliveries to ``owner``, fairly (see the interface)."""
        check_page(limit)
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds must be positive, got {lease_seconds!r}")
        stamp = format_timestamp(now)
        if not self._database.rows(f"SELECT 1 {_DUE} LIMIT 1", (stamp, stamp)):
            return ()  # nothing due: no write lock taken
        until = format_timestamp(now + timedelta(seconds=lease_seconds))
        with self._database.transaction() as cur:
            rows = cur.execute(
                "SELECT d.delivery_id, d.webhook_id, d.game_id, d.event, d.body, w.url, w.secret, d.attempts,"
                " d.occurrence, d.body_mac"
                " FROM webhook_deliveries d JOIN webhooks w ON w.webhook_id = d.webhook_id"
                f" WHERE d.delivery_no IN ({FAIR_CLAIM}) ORDER BY d.next_attempt_at, d.delivery_no",
                (stamp, stamp, stamp, per_webhook, per_organiser, limit),
            ).fetchall()
            cur.executemany(
                "UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE delivery_id = ?",
                [(owner, until, row[0]) for row in rows],
            )
        return tuple(ClaimedDelivery(*row) for row in rows)
