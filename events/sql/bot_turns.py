"""The bot-turn index on both SQL backends (the same statements)."""

from __future__ import annotations

from datetime import datetime, timedelta

from events.recorders.bot_turns import BotTurnIndex
from events.sql.database import SqlRecorder

#: the lease name prefix of runners' heartbeats (rows of ``leases``, beside the sweeper's)
RUNNER_LEASE = "bot-runner:"

# Round-robin across creators (a game without one is its own): each creator's
# waiting games ranked longest waiting first, held ones included (so a creator
# whose game is in play comes after those with none in play), and the creator
# whose game was claimed longest ago (or never) first within a rank.
_FAIR_ORDER = (
    "SELECT game_id FROM (SELECT game_id, waiting_since, lease_until,"
    "  ROW_NUMBER() OVER (PARTITION BY who ORDER BY waiting_since, game_id) AS turn,"
    "  MAX(served_at) OVER (PARTITION BY who) AS served"
    "  FROM (SELECT game_id, waiting_since, lease_until, served_at, COALESCE(creator, game_id) AS who"
    "    FROM bot_turns WHERE waiting_since IS NOT NULL) AS waiting) AS ranked"
    " WHERE waiting_since <= ? AND (lease_until IS NULL OR lease_until < ?)"
    " ORDER BY turn, served IS NOT NULL, served, waiting_since, game_id LIMIT ?"
)


class SqlBotTurnIndex(SqlRecorder, BotTurnIndex):
    """:class:`BotTurnIndex` on a :class:`SqlDatabase`."""

    def set_bot_turn(
        self, game_id: str, version: int, waiting_since: datetime | None, creator: str | None = None
    ) -> None:
        d = self.dialect
        since = None if waiting_since is None else d.time_param(waiting_since)
        with self._transaction() as cur:
            cur.execute(
                d.sql(
                    "INSERT INTO bot_turns (game_id, version, waiting_since, creator) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,"
                    " waiting_since = excluded.waiting_since,"
                    " creator = COALESCE(bot_turns.creator, excluded.creator)"
                    " WHERE bot_turns.version < excluded.version"
                ),
                (game_id, version, since, creator),
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
                    "UPDATE bot_turns SET lease_owner = ?, lease_until = ?, served_at = ?"
                    f" WHERE game_id IN ({_FAIR_ORDER})"
                    " AND waiting_since IS NOT NULL AND (lease_until IS NULL OR lease_until < ?)"
                    " RETURNING game_id"
                ),
                (owner, until, stamp, d.time_param(waiting_before), stamp, limit, stamp),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def beat_bot_runner(self, owner: str, now: datetime, seconds: float) -> None:
        d = self.dialect
        with self._transaction() as cur:
            cur.execute(
                d.sql("INSERT INTO leases (name, owner, until) VALUES (?, ?, ?)"
                      " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until"),
                (RUNNER_LEASE + owner, owner, d.time_param(now + timedelta(seconds=seconds))),
            )

    def live_bot_runners(self, now: datetime) -> int:
        d = self.dialect
        rows = self._rows(
            d.sql("SELECT COUNT(*) FROM leases WHERE name LIKE ? AND until > ?"),
            (RUNNER_LEASE + "%", d.time_param(now)),
        )
        return int(rows[0][0])

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
