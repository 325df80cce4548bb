"""The webhook delivery log: the same SQL on both backends, except claims,
which each backend takes its own way (see their modules)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from events.encoding.cursor import decode_cursor, encode_cursor
from events.recorders.deliveries import (
    CHECKPOINTS_CURSOR,
    EVENTS_CURSOR,
    AttemptOutcome,
    DeliveryAttempt,
    DeliveryLog,
    DeliveryPage,
    DispatchState,
    NewDelivery,
)
from events.sql.database import SqlRecorder
from events.sql.rows import ATTEMPT_COLUMNS, DELIVERY_COLUMNS, attempt_from_row, check_page, delivery_from_row
from events.sql.tournaments import FIRST_PAGE

#: The delivery_no of the deliveries a claim takes, fairly (one statement,
#: both backends).  Parameters: now (in flight), now (due), now (lease
#: free), per-webhook cap, per-organiser cap, limit.
#:
#: Fair means: a delivery is due and unleased; its webhook holds fewer than
#: the per-webhook cap in flight (leased, lease running) counting the ones
#: this claim takes before it; so does its organiser, against the
#: per-organiser cap; and organisers take turns: each candidate's place is
#: (its rank among its organiser's candidates + what the organiser already
#: holds in flight), so the organiser holding the least goes first, and one
#: organiser's backlog, however long or slow, never queues another's.
FAIR_CLAIM = (
    "WITH busy AS ("
    "  SELECT b.webhook_id, bw.organiser_id FROM webhook_deliveries b JOIN webhooks bw ON bw.webhook_id = b.webhook_id"
    "  WHERE b.state = 'pending' AND b.lease_until > ?),"
    " hook_busy AS (SELECT webhook_id, count(*) AS n FROM busy GROUP BY webhook_id),"
    " org_busy AS (SELECT organiser_id, count(*) AS n FROM busy GROUP BY organiser_id),"
    " due AS ("
    "  SELECT c.delivery_no, c.next_attempt_at, c.webhook_id, w.organiser_id,"
    "   row_number() OVER (PARTITION BY c.webhook_id ORDER BY c.next_attempt_at, c.delivery_no) AS hook_rank"
    "  FROM webhook_deliveries c JOIN webhooks w ON w.webhook_id = c.webhook_id"
    "  WHERE c.state = 'pending' AND c.next_attempt_at <= ? AND (c.lease_until IS NULL OR c.lease_until <= ?)"
    "  AND w.active),"
    " eligible AS ("
    "  SELECT due.delivery_no, due.next_attempt_at, due.organiser_id,"
    "   row_number() OVER (PARTITION BY due.organiser_id ORDER BY due.next_attempt_at, due.delivery_no)"
    "    + coalesce(ob.n, 0) AS turn"
    "  FROM due LEFT JOIN hook_busy hb ON hb.webhook_id = due.webhook_id"
    "  LEFT JOIN org_busy ob ON ob.organiser_id = due.organiser_id"
    "  WHERE due.hook_rank + coalesce(hb.n, 0) <= ?)"
    " SELECT delivery_no FROM eligible WHERE turn <= ? ORDER BY turn, next_attempt_at, delivery_no LIMIT ?"
)


#: the insert of new deliveries: a game's kept unique per (webhook, game,
#: event, occurrence), a checkpoint's (no game) by the partial unique index
#: per (webhook, event, occurrence = tree size)
_INSERT_DELIVERY = (
    "INSERT INTO webhook_deliveries (delivery_id, webhook_id, game_id, event, body, state,"
    " attempts, created_at, next_attempt_at, occurrence, body_mac)"
    " VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)"
)
_OF_GAME = " ON CONFLICT (webhook_id, game_id, event, occurrence) DO NOTHING"
_OF_CHECKPOINT = " ON CONFLICT (webhook_id, event, occurrence) WHERE game_id IS NULL DO NOTHING"


class SqlDeliveryLog(SqlRecorder, DeliveryLog):
    """:class:`DeliveryLog` on a :class:`SqlDatabase`, but for
    :meth:`claim_deliveries`."""

    def dispatch_state(self) -> DispatchState:
        """Cursor, head, webhooks registered and whether any is active, in one statement."""
        row = self._rows(
            "SELECT (SELECT position FROM dispatch_cursors WHERE name = 'webhooks'),"
            " (SELECT coalesce(max(position), 0) FROM events),"
            " (SELECT count(*) FROM webhooks), EXISTS (SELECT 1 FROM webhooks WHERE active = true)"
        )[0]
        return DispatchState(int(row[0]), int(row[1]), int(row[2]), bool(row[3]))

    def checkpoint_dispatch_state(self) -> DispatchState:
        """The checkpoint cursor, the latest tree size, webhooks registered and
        whether any organiser-wide one is active, in one statement."""
        row = self._rows(
            f"SELECT (SELECT position FROM dispatch_cursors WHERE name = '{CHECKPOINTS_CURSOR}'),"
            " (SELECT tree_size FROM log_state),"  # the head: never a row planted beyond it (issue 48)
            " (SELECT count(*) FROM webhooks),"
            " EXISTS (SELECT 1 FROM webhooks WHERE active = true AND batch_id IS NULL)"
        )[0]
        return DispatchState(int(row[0]), int(row[1]), int(row[2]), bool(row[3]))

    def record_deliveries(
        self,
        expected_cursor: int,
        new_cursor: int,
        deliveries: Sequence[NewDelivery],
        now: datetime,
        webhooks_seen: int | None = None,
        cursor: str = EVENTS_CURSOR,
    ) -> bool:
        """Create ``deliveries`` and move the cursor, atomically, if nobody
        moved it since ``expected_cursor`` and no webhook was registered since
        ``webhooks_seen`` were counted (else write nothing: False).  The
        cursor row's lock serialises this with ``create_webhook``."""
        if cursor not in (EVENTS_CURSOR, CHECKPOINTS_CURSOR):
            raise ValueError(f"no dispatch cursor named {cursor!r}")
        if new_cursor < expected_cursor:
            raise ValueError(f"the cursor only moves forward ({expected_cursor} -> {new_cursor})")
        d = self.dialect
        stamp = d.time_param(now)
        with self._transaction() as cur:
            row = cur.execute(d.sql(f"SELECT position FROM dispatch_cursors WHERE name = ?{d.for_update}"),
                              (cursor,)).fetchone()
            if int(row[0]) != expected_cursor:
                return False
            if webhooks_seen is not None and int(cur.execute("SELECT count(*) FROM webhooks").fetchone()[0]) != (
                webhooks_seen
            ):
                return False
            for of_game, conflict in ((True, _OF_GAME), (False, _OF_CHECKPOINT)):
                rows = [(x.delivery_id, x.webhook_id, x.game_id, x.event, x.body, stamp, stamp, x.occurrence, x.mac)
                        for x in deliveries if (x.game_id is not None) == of_game]
                if rows:
                    cur.executemany(d.sql(_INSERT_DELIVERY + conflict), rows)
            cur.execute(d.sql("UPDATE dispatch_cursors SET position = ? WHERE name = ?"), (new_cursor, cursor))
        return True

    def record_attempt(self, delivery_id: str, owner: str, outcome: AttemptOutcome) -> bool:
        """Log an attempt and settle the delivery if ``owner`` holds its lease."""
        d = self.dialect
        attempted_at = d.time_param(outcome.attempted_at)
        delivered_at = attempted_at if outcome.state == "delivered" else None
        next_at = None if outcome.next_attempt_at is None else d.time_param(outcome.next_attempt_at)
        with self._transaction() as cur:
            row = cur.execute(
                d.sql(
                    "UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?,"
                    " delivered_at = coalesce(?, delivered_at), last_status_code = ?, last_error = ?,"
                    " lease_owner = NULL, lease_until = NULL"
                    " WHERE delivery_id = ? AND lease_owner = ? AND state = 'pending' RETURNING attempts"
                ),
                (outcome.state, next_at, delivered_at, outcome.status_code, outcome.error, delivery_id, owner),
            ).fetchone()
            if row is None:
                return False
            cur.execute(
                d.sql(f"INSERT INTO webhook_attempts ({ATTEMPT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"),
                (delivery_id, row[0], attempted_at, outcome.status_code, outcome.error, outcome.duration_ms),
            )
        return True

    def list_deliveries(self, webhook_id: str, limit: int = 50, cursor: str | None = None) -> DeliveryPage:
        """The webhook's deliveries newest first, each with its attempts (one snapshot)."""
        check_page(limit)
        d = self.dialect
        before = decode_cursor(cursor) if cursor is not None else FIRST_PAGE
        with self._snapshot() as cur:
            rows = cur.execute(
                d.sql(
                    f"SELECT {DELIVERY_COLUMNS}, delivery_no FROM webhook_deliveries"
                    " WHERE webhook_id = ? AND delivery_no < ? ORDER BY delivery_no DESC LIMIT ?"
                ),
                (webhook_id, before, limit + 1),
            ).fetchall()
            page = rows[:limit]
            ids = [row[0] for row in page]
            attempts = (
                cur.execute(
                    d.sql(
                        f"SELECT {ATTEMPT_COLUMNS} FROM webhook_attempts"
                        f" WHERE delivery_id IN ({', '.join('?' * len(ids))}) ORDER BY delivery_id, attempt"
                    ),
                    ids,
                ).fetchall()
                if ids
                else []
            )
        history: dict[str, list[DeliveryAttempt]] = {}
        for a in attempts:
            history.setdefault(a[0], []).append(attempt_from_row(a, d))
        next_cursor = encode_cursor(page[-1][12]) if len(rows) > limit else None
        return DeliveryPage(
            tuple(delivery_from_row(row, d, tuple(history.get(row[0], ()))) for row in page), next_cursor
        )
