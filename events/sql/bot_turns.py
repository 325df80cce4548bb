"""The bot-turn index on both SQL backends (the same statements)."""

from __future__ import annotations

from datetime import datetime, timedelta

from events.bot_turns import BotTurnIndex
from events.sql.database import SqlDatabase


class SqlBotTurnIndex(SqlDatabase, BotTurnIndex):
    """:class:`BotTurnIndex` on a :class:`SqlDatabase`."""

    def set_bot_turn(self, game_id: str, version: int, waiting_since: datetime | None) -> None:
        d = self.dialect
        since = None if waiting_since is None else d.time_param(waiting_since)
        with self._transaction() as cur:
            cur.execute(
                d.sql(
                    "INSERT INTO bot_turns (game_id, version, waiting_since) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,"
                    " waiting_since = excluded.waiting_since WHERE bot_turns.version < excluded.version"
                ),
                (game_id, version, since),
            )

    def claim_bot_turns(
        self, owner: str, now: datetime, seconds: float, waiting_before: datetime, limit: int
    ) -> list[str]:
        d = self.dialect
        stamp, until = d.time_param(now), d.time_param(now + timedelta(seconds=seconds))
        # The lapsed-lease test is repeated in the UPDATE: on PostgreSQL a
        # runner that picked the same row concurrently re-reads it once the
        # first one commits, finds the new lease and skips it.
        with self._transaction() as cur:
            rows = cur.execute(
                d.sql(
                    "UPDATE bot_turns SET lease_owner = ?, lease_until = ?"
                    " WHERE game_id IN (SELECT game_id FROM bot_turns"
                    "   WHERE waiting_since IS NOT NULL AND waiting_since <= ?"
                    "   AND (lease_until IS NULL OR lease_until < ?) ORDER BY waiting_since LIMIT ?)"
                    " AND waiting_since IS NOT NULL AND (lease_until IS NULL OR lease_until < ?)"
                    " RETURNING game_id"
                ),
                (owner, until, d.time_param(waiting_before), stamp, limit, stamp),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def release_bot_turn(self, game_id: str, owner: str) -> None:
        d = self.dialect
        with self._transaction() as cur:
            cur.execute(
                d.sql("UPDATE bot_turns SET lease_owner = NULL, lease_until = NULL WHERE game_id = ? AND lease_owner = ?"),
                (game_id, owner),
            )

    def drop_bot_turn(self, game_id: str) -> None:
        d = self.dialect
        with self._transaction() as cur:
            cur.execute(
                d.sql("UPDATE bot_turns SET waiting_since = NULL, lease_owner = NULL, lease_until = NULL"
                      " WHERE game_id = ?"),
                (game_id,),
            )
