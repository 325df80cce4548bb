"""Organisers, batches and webhooks: the same SQL on both backends."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from events.encoding.cursor import decode_cursor, encode_cursor
from events.encoding.timestamps import format_timestamp
from events.recorders.tournaments import (
    BatchPage,
    BatchRecord,
    OrganiserRecord,
    TournamentStore,
    WebhookRecord,
)
from events.records import NewGame
from events.sql.database import Cursor, SqlRecorder
from events.sql.rows import (
    BATCH_COLUMNS,
    ORGANISER_COLUMNS,
    WEBHOOK_COLUMNS,
    batch_from_row,
    check_page,
    organiser_from_row,
    webhook_from_row,
)

#: Larger than any row number, for the first page of a newest-first listing.
FIRST_PAGE = 2**63 - 1


class SqlTournaments(SqlRecorder, TournamentStore):
    """:class:`TournamentStore` on a :class:`SqlDatabase`."""

    def create_organiser(self, organiser_id: str, name: str, token_hash: str) -> OrganiserRecord:
        """Store a new organiser; IntegrityError if the id is taken."""
        now = self._clock()
        with self._transaction() as cur:
            cur.execute(
                self.dialect.sql(f"INSERT INTO organisers ({ORGANISER_COLUMNS}) VALUES (?, ?, ?, ?)"),
                (organiser_id, name, token_hash, self.dialect.time_param(now)),
            )
        return OrganiserRecord(organiser_id, name, token_hash, format_timestamp(now))

    def get_organiser(self, organiser_id: str) -> OrganiserRecord | None:
        """The organiser, or None if unknown."""
        rows = self._rows(
            self.dialect.sql(f"SELECT {ORGANISER_COLUMNS} FROM organisers WHERE organiser_id = ?"),
            (organiser_id,),
        )
        return organiser_from_row(rows[0], self.dialect) if rows else None

    def create_batch(
        self,
        batch_id: str,
        organiser_id: str,
        name: str | None,
        game_type: str,
        games: Sequence[NewGame],
        ref: str | None = None,
        starts_at: datetime | None = None,
    ) -> BatchRecord:
        """Create the batch row and its games in one transaction (all or none)."""
        if not games:
            raise ValueError("a batch needs at least one game")
        now = self._clock()

        def insert_batch(cur: Cursor) -> None:
            cur.execute(
                self.dialect.sql(f"INSERT INTO batches ({BATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                (batch_id, organiser_id, name, game_type, len(games), self.dialect.time_param(now), ref,
                 None if starts_at is None else self.dialect.time_param(starts_at)),
            )

        self._create(games, insert_batch)
        return BatchRecord(batch_id, organiser_id, name, game_type, len(games), format_timestamp(now), ref,
                           None if starts_at is None else format_timestamp(starts_at))

    def get_batch(self, batch_id: str) -> BatchRecord | None:
        """The batch, or None if unknown."""
        rows = self._rows(self.dialect.sql(f"SELECT {BATCH_COLUMNS} FROM batches WHERE batch_id = ?"), (batch_id,))
        return batch_from_row(rows[0], self.dialect) if rows else None

    def list_batches(
        self, organiser_id: str, limit: int = 50, cursor: str | None = None, ref_prefix: str | None = None
    ) -> BatchPage:
        """The organiser's batches newest first (whose ref starts with ``ref_prefix``, if given)."""
        check_page(limit)
        before = decode_cursor(cursor) if cursor is not None else FIRST_PAGE
        # a prefix compared as text (no LIKE: its wildcards would need escaping)
        prefix = "" if ref_prefix is None else " AND substr(ref, 1, ?) = ?"
        params = () if ref_prefix is None else (len(ref_prefix), ref_prefix)
        rows = self._rows(
            self.dialect.sql(
                f"SELECT {BATCH_COLUMNS}, batch_no FROM batches WHERE organiser_id = ? AND batch_no < ?{prefix}"
                " ORDER BY batch_no DESC LIMIT ?"
            ),
            (organiser_id, before, *params, limit + 1),
        )
        page = rows[:limit]
        next_cursor = encode_cursor(page[-1][8]) if len(rows) > limit else None
        return BatchPage(tuple(batch_from_row(row, self.dialect) for row in page), next_cursor)

    def create_webhook(
        self,
        webhook_id: str,
        organiser_id: str,
        url: str,
        events: Sequence[str],
        secret: str,
        batch_id: str | None = None,
    ) -> WebhookRecord:
        """Register an active webhook starting after the current heads of the
        log and of the published checkpoints."""
        if not events:
            raise ValueError("a webhook needs at least one event type")
        d = self.dialect
        now = self._clock()
        with self._transaction() as cur:
            # serialised with record_deliveries on both cursor rows (SQLite: on
            # the write lock): the heads read below are at or after any cursor
            # a dispatcher has moved to
            cur.execute(f"SELECT position FROM dispatch_cursors ORDER BY name{d.for_update}").fetchall()
            head = int(cur.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])
            tree_size = int(cur.execute("SELECT tree_size FROM log_state").fetchone()[0])  # the log's head
            cur.execute(
                d.sql(f"INSERT INTO webhooks ({WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, true, ?, ?)"),
                (webhook_id, organiser_id, url, batch_id, d.list_param(events), secret, head, d.time_param(now),
                 tree_size),
            )
        return WebhookRecord(
            webhook_id, organiser_id, url, batch_id, tuple(events), secret, head, True, format_timestamp(now),
            tree_size,
        )

    def get_webhook(self, webhook_id: str) -> WebhookRecord | None:
        """The webhook (active or not), or None if unknown."""
        rows = self._rows(
            self.dialect.sql(f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE webhook_id = ?"), (webhook_id,)
        )
        return webhook_from_row(rows[0], self.dialect) if rows else None

    def list_webhooks(self, organiser_id: str) -> tuple[WebhookRecord, ...]:
        """The organiser's active webhooks, oldest first."""
        rows = self._rows(
            self.dialect.sql(
                f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE organiser_id = ? AND active = true ORDER BY webhook_no"
            ),
            (organiser_id,),
        )
        return tuple(webhook_from_row(row, self.dialect) for row in rows)

    def organiser_wide_webhooks(self) -> tuple[WebhookRecord, ...]:
        """Every active webhook without a batch, oldest first."""
        rows = self._rows(
            f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE active = true AND batch_id IS NULL ORDER BY webhook_no"
        )
        return tuple(webhook_from_row(row, self.dialect) for row in rows)

    def deactivate_webhook(self, webhook_id: str) -> bool:
        """Stop a webhook and fail its pending deliveries; False if it was not active."""
        d = self.dialect
        with self._transaction() as cur:
            stopped = cur.execute(
                d.sql("UPDATE webhooks SET active = false WHERE webhook_id = ? AND active = true"), (webhook_id,)
            )
            if stopped.rowcount == 0:
                return False
            cur.execute(
                d.sql(
                    "UPDATE webhook_deliveries SET state = 'failed', next_attempt_at = NULL, last_error = ?,"
                    " lease_owner = NULL, lease_until = NULL WHERE webhook_id = ? AND state = 'pending'"
                ),
                ("the webhook was deleted", webhook_id),
            )
        return True
