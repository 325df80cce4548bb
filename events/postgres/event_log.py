"""The production store's event log: the shared catalogue SQL
(:mod:`events.sql.catalogue`), PostgreSQL's one-round-trip append
(:mod:`events.postgres.appends`) and waits woken by LISTEN/NOTIFY."""

from __future__ import annotations

import time

from events.postgres.appends import PostgresAppends
from events.postgres.database import PostgresDatabase
from events.postgres.statements import RECORD_WATCH
from events.records import GameNotFound
from events.sql.catalogue import SqlCatalogue


class PostgresEventLog(PostgresAppends, SqlCatalogue):
    """:class:`~events.recorders.event_log.EventStore` on PostgreSQL."""

    def __init__(self, database: PostgresDatabase) -> None:
        super().__init__(database)
        self._database: PostgresDatabase = database

    def wait_for_events(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Block until the game's version passes ``after_seq`` (True) or
        ``timeout`` runs out (False).

        Woken by this store's LISTEN thread; the database is re-checked at
        least every ``fallback_poll`` seconds (every 0.25 s while the
        listener is reconnecting) in case a notification was lost."""
        deadline = time.monotonic() + max(0.0, timeout)
        listening = self._database.listener.ensure_started(min(max(timeout, 0.0), 1.0))
        with self._database.listener.watch(game_id):
            while True:
                if self._watched_version(game_id) > after_seq:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                step = self._database.fallback_poll if listening else 0.25
                if self._database.listener.wait(game_id, after_seq, min(remaining, step)):
                    return True
                listening = self._database.listener.listening

    def _watched_version(self, game_id: str) -> int:
        """The game's version, recording it in ``game_watches`` first if the
        listener has not (so that appends NOTIFY for it: migration 0008).
        The record and the read are one statement that locks the game row
        FOR SHARE: an append that was under way either commits first (and
        this read sees it) or fires its trigger after the record commits."""
        pid = self._database.listener.unrecorded_pid(game_id)
        if pid is None:
            return self.version(game_id)
        with self._database.connections.connection() as conn:
            row = conn.execute(RECORD_WATCH, (game_id, pid)).fetchone()
        self._database.listener.recorded(game_id, pid)
        if row is None or row[0] is None:
            raise GameNotFound(game_id)
        return int(row[0])
