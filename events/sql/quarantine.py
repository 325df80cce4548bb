"""The quarantine of damaged tails on both SQL backends (see :mod:`events.recorders.quarantine`)."""

from __future__ import annotations

from datetime import datetime

from domain.custody import EventsQuarantined
from events.encoding.timestamps import format_timestamp
from events.integrity.checkpoint import Checkpoint, parse_note
from events.integrity.sealing import seal
from events.integrity.signing import Signer
from events.recorders.quarantine import (
    QUARANTINE_EVENT,
    LoggedEvent,
    QuarantinedRun,
    QuarantineStore,
    SetAside,
    TailChanged,
)
from events.records import GameNotFound, NewEvent
from events.sql.database import Cursor, SqlRecorder
from events.sql.rows import event_params
from events.sql.token_history import restore_seat_hashes

#: the columns of an event kept in quarantine, in the order both tables name them
_KEPT = ("game_id, seq, position, type, schema_version, {payload}, recorded_at, seat, idempotency_key, prev_hash,"
         " hash, signature, key_id")


class SqlQuarantine(SqlRecorder, QuarantineStore):
    """:class:`QuarantineStore` on a :class:`SqlDatabase`."""

    def set_aside(self, game_id: str, from_seq: int, prev_hash: str, status: str, reason: str,
                  signer: Signer) -> SetAside:
        if from_seq < 2:
            raise ValueError(f"a tail after a good event starts at seq 2 or later, not {from_seq}")
        d = self.dialect
        with self._transaction() as cur:
            if d.name == "postgres":  # no checkpoint lands while the tail is judged and moved (SQLite: one writer)
                cur.execute("SELECT tree_size FROM log_state FOR UPDATE")
            if cur.execute(d.sql("SELECT version FROM games WHERE game_id = ?" + d.for_update),
                           (game_id,)).fetchone() is None:
                raise GameNotFound(game_id)
            hashes = [str(r[0]) for r in cur.execute(
                d.sql("SELECT hash FROM events WHERE game_id = ? AND seq >= ? ORDER BY seq"), (game_id, from_seq)
            ).fetchall()]
            head = cur.execute(d.sql("SELECT hash, recorded_at FROM events WHERE game_id = ? AND seq = ?"),
                               (game_id, from_seq - 1)).fetchone()
            if not hashes or head is None or head[0] != prev_hash:
                raise TailChanged(f"game {game_id}: its log changed since it was read (a tail from seq {from_seq}"
                                  f" after {prev_hash[:12]}... expected): nothing was moved")
            self._refuse_logged(cur, game_id, from_seq)
            now = self._moment(cur)
            # never before the last good event (the domain reads time from recorded_at)
            recorded_at = max(format_timestamp(now), str(head[1]))
            count = len(hashes)
            moved = EventsQuarantined(from_seq, from_seq + count - 1, count, tuple(hashes))
            [event] = seal(game_id, from_seq - 1, prev_hash, [
                NewEvent(QUARANTINE_EVENT, moved.to_payload(), EventsQuarantined.SCHEMA_VERSION)], recorded_at)
            event = event.signed(signer)
            payload_text = "payload::text" if d.native_types else "payload"
            cur.execute(
                d.sql(f"INSERT INTO quarantined_events ({_KEPT.format(payload='payload')}, from_seq,"
                      f" quarantined_at, reason) SELECT {_KEPT.format(payload=payload_text)}, ?, ?, ?"
                      " FROM events WHERE game_id = ? AND seq >= ? ORDER BY seq"),
                (from_seq, d.time_param(now), reason, game_id, from_seq),
            )
            cur.execute(d.sql("DELETE FROM events WHERE game_id = ? AND seq >= ?"), (game_id, from_seq))
            cur.execute(d.sql("DELETE FROM idempotency_keys WHERE game_id = ? AND last_seq >= ?"), (game_id, from_seq))
            cur.execute(
                d.sql(f"INSERT INTO events ({_KEPT.format(payload='payload')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                      " ?, ?, ?)"),
                (event.game_id, event.seq, self._position(cur), *event_params(event)[2:]),
            )
            cur.execute(
                d.sql("UPDATE games SET version = ?, last_hash = ?, status = ?, updated_at = ? WHERE game_id = ?"),
                (event.seq, event.hash, status, d.time_param(now), game_id),
            )
            restore_seat_hashes(cur, d, game_id, from_seq)  # the hashes the moved rotations replaced
            # the lookup aids fall back to the last good version: the server's next write of them wins
            for table, cleared in (("deadlines", ""), ("bot_turns", ", waiting_since = NULL, lease_owner = NULL,"
                                                                     " lease_until = NULL")):
                cur.execute(d.sql(f"UPDATE {table} SET version = ?{cleared} WHERE game_id = ?"),
                            (from_seq - 1, game_id))
        run = QuarantinedRun(from_seq, count, format_timestamp(now), reason)
        return SetAside(run, event.seq, event.hash)

    def quarantined(self, game_id: str) -> list[QuarantinedRun]:
        d = self.dialect
        rows = self._rows(
            d.sql("SELECT from_seq, count(*), min(quarantined_at), min(reason) FROM quarantined_events"
                  " WHERE game_id = ? GROUP BY from_seq, quarantined_at ORDER BY min(quarantine_id)"),
            (game_id,),
        )
        return [QuarantinedRun(int(r[0]), int(r[1]), d.time_text(r[2]), str(r[3])) for r in rows]

    def _refuse_logged(self, cur: Cursor, game_id: str, from_seq: int) -> None:
        """LoggedEvent if a published checkpoint holds an event of the game from ``from_seq`` on."""
        d = self.dialect
        leaf = cur.execute(
            d.sql("SELECT l.seq, l.leaf_index FROM log_leaves l WHERE l.game_id = ? AND l.seq >= ?"
                  " AND l.leaf_index < (SELECT coalesce(max(tree_size), 0) FROM log_checkpoints)"
                  " ORDER BY l.seq LIMIT 1"),
            (game_id, from_seq),
        ).fetchone()
        if leaf is None:
            return
        seq, leaf_index = int(leaf[0]), int(leaf[1])
        size, note = cur.execute(
            d.sql("SELECT tree_size, note FROM log_checkpoints WHERE tree_size > ? ORDER BY tree_size LIMIT 1"),
            (leaf_index,),
        ).fetchone()
        try:
            origin = Checkpoint.parse(parse_note(str(note))[0]).origin
        except ValueError:
            origin = "(a checkpoint whose note does not parse)"
        raise LoggedEvent(game_id, seq, leaf_index, int(size), origin)

    def _moment(self, cur: Cursor) -> datetime:
        """The time of the move: the database's (PostgreSQL), the process's (SQLite)."""
        if self.dialect.native_types:
            moment: datetime = cur.execute("SELECT clock_timestamp()").fetchone()[0]
            return moment
        return self._clock()

    def _position(self, cur: Cursor) -> int:
        """The global position of the new event: after every position handed out, those in quarantine too."""
        if self.dialect.native_types:  # as the append functions number (migration 0012)
            row = cur.execute(
                "SELECT (pg_current_xact_id()::text::bigint << 16)"
                " + coalesce(nullif(current_setting('cablecar.positions_used', true), ''), '0')::integer"
            ).fetchone()
            cur.execute("SELECT set_config('cablecar.positions_used',"
                        " (coalesce(nullif(current_setting('cablecar.positions_used', true), ''), '0')::integer"
                        " + 1)::text, true)")
            return int(row[0])
        row = cur.execute("SELECT max((SELECT coalesce(max(position), 0) FROM events),"
                          " (SELECT coalesce(max(position), 0) FROM quarantined_events))").fetchone()
        return int(row[0]) + 1
