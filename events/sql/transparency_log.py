"""The transparency log's rows on both SQL backends (see :mod:`events.recorders.transparency_log`).

A publication is one write transaction that moves the head (``log_state``).
Publishers take turns inside it: SQLite's ``BEGIN IMMEDIATE`` already holds
the database's write lock; on PostgreSQL the owner's ``cablecar_log_publish``
(migration 0085) locks the head's row, which the server's role could not lock
(nor write any of these tables) itself.  A publisher that is no longer at the
head writes nothing (:class:`LogConflict`).  A quarantine
(:mod:`events.sql.quarantine`) takes the same turns (it locks the head's row),
and a publisher whose events were moved aside since it read them writes
nothing either: no leaf ever commits to an event that left the log.

On PostgreSQL that function computes the leaves, the nodes and the root from
the events and stores the note only if its text is that tree's checkpoint: the
publisher sends how many events, up to which position, and the signed note
(an event moved aside meanwhile makes the count wrong: refused).
On SQLite (no roles: whoever opens the file may write anything) the publisher's
rows are written as it computed them.  Both move every row found beyond the head
to ``log_foreign_rows`` first, and say how many (:class:`Publication`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.encoding.timestamps import format_timestamp, parse_timestamp
from events.recorders.transparency_log import (
    LogBusy,
    LogConflict,
    LogEvent,
    LogHead,
    LogLeaf,
    Node,
    Publication,
    PublishedCheckpoint,
    TransparencyLog,
)
from events.sql.database import SqlRecorder
from events.sql.rows import check_page

_CHECKPOINT_COLUMNS = "tree_size, root_hash, note, key_id, last_position, created_at"
#: the head's size, as a condition's operand: no read goes past it
_HEAD = "(SELECT tree_size FROM log_state)"
#: the log's tables, each with (SQLite) its rows beyond a head of ``?`` leaves, as JSON, by its primary key
LOG_TABLES = ("log_leaves", "log_nodes", "log_checkpoints")
_LEVELS = ", ".join(f"({level})" for level in range(64))
_BEYOND = {
    "log_leaves": "SELECT json_object('leaf_index', leaf_index, 'game_id', game_id, 'seq', seq, 'position', position)"
                  " FROM log_leaves WHERE leaf_index >= ?",
    # a node covers leaves [index << level, (index + 1) << level): beyond the head once index >= head >> level
    "log_nodes": "SELECT json_object('level', n.level, 'node_index', n.node_index, 'hash', hex(n.hash))"
                 f" FROM (VALUES {_LEVELS}) AS lv JOIN log_nodes n ON n.level = lv.column1"
                 " AND n.node_index >= (? >> lv.column1)",
    "log_checkpoints": "SELECT json_object('tree_size', tree_size, 'root_hash', hex(root_hash), 'note', note,"
                       " 'key_id', key_id, 'last_position', last_position, 'created_at', created_at)"
                       " FROM log_checkpoints WHERE tree_size > ?",
}


def _blob(raw: Any) -> bytes:
    return bytes(raw)


class SqlTransparencyLog(SqlRecorder, TransparencyLog):
    """:class:`TransparencyLog` on a :class:`SqlDatabase`."""

    def log_events(self, after_position: int, limit: int) -> list[LogEvent]:
        d = self.dialect
        rows = self._rows(
            d.sql(
                f"SELECT position, e.game_id, seq, hash, {d.leaf_salt_of_game} FROM events e"
                f" JOIN games g ON g.game_id = e.game_id WHERE position > ? AND {d.readable_position}"
                " ORDER BY position LIMIT ?"
            ),
            (after_position, limit),
        )
        return [LogEvent(int(r[0]), str(r[1]), int(r[2]), str(r[3]), None if r[4] is None else str(r[4]))
                for r in rows]

    def node_hashes(self, nodes: Sequence[Node]) -> dict[Node, bytes]:
        wanted = sorted(set(nodes))
        if not wanted:
            return {}
        values = ", ".join("(?, ?)" for _ in wanted)
        params = [n for node in wanted for n in node]
        # a join on the primary key: SQLite reads the whole table for a row-value IN (VALUES ...)
        rows = self._rows(
            self.dialect.sql(
                f"SELECT n.level, n.node_index, n.hash FROM (VALUES {values}) AS w"
                " JOIN log_nodes n ON n.level = w.column1 AND n.node_index = w.column2"
            ),
            params,
        )
        return {(int(r[0]), int(r[1])): _blob(r[2]) for r in rows}

    def head(self) -> LogHead:
        row = self._rows("SELECT tree_size, last_position FROM log_state")
        return LogHead(0, 0) if not row else LogHead(int(row[0][0]), int(row[0][1]))

    def publish_checkpoint(
        self, previous_size: int, leaves: Sequence[LogLeaf], nodes: Sequence[tuple[int, int, bytes]],
        checkpoint: PublishedCheckpoint,
    ) -> Publication:
        if not leaves:
            raise ValueError("a publication adds at least one leaf")
        with self._transaction() as cur:
            if self.dialect.name == "postgres":
                return _publish_postgres(cur, previous_size, len(leaves), checkpoint)
            return self._publish_sqlite(cur, previous_size, leaves, nodes, checkpoint)

    def _publish_sqlite(
        self, cur: Any, previous_size: int, leaves: Sequence[LogLeaf], nodes: Sequence[tuple[int, int, bytes]],
        checkpoint: PublishedCheckpoint,
    ) -> Publication:
        head = int(cur.execute("SELECT tree_size FROM log_state").fetchone()[0])
        if head != previous_size:
            raise LogConflict(f"the log holds {head} leaves, not {previous_size}: another publisher was first")
        self._refuse_moved(cur, leaves)
        foreign: dict[str, int] = {}
        found_at = self.dialect.time_param(parse_timestamp(checkpoint.created_at))
        for table in LOG_TABLES:
            rows = cur.execute(_BEYOND[table], (head,)).fetchall()
            if rows:
                foreign[table] = len(rows)
                cur.executemany("INSERT INTO log_foreign_rows (table_name, tree_size, found_at, row_data)"
                                " VALUES (?, ?, ?, ?)", [(table, head, found_at, r[0]) for r in rows])
        if foreign:
            cur.execute("DELETE FROM log_leaves WHERE leaf_index >= ?", (head,))
            cur.executemany("DELETE FROM log_nodes WHERE level = ? AND node_index >= ?",
                            [(level, head >> level) for level in range(64)])
            cur.execute("DELETE FROM log_checkpoints WHERE tree_size > ?", (head,))
        cur.executemany("INSERT INTO log_leaves (leaf_index, game_id, seq, position) VALUES (?, ?, ?, ?)",
                        [(leaf.leaf_index, leaf.game_id, leaf.seq, leaf.position) for leaf in leaves])
        cur.executemany("INSERT INTO log_nodes (level, node_index, hash) VALUES (?, ?, ?)", list(nodes))
        cur.execute(
            f"INSERT INTO log_checkpoints ({_CHECKPOINT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
            (checkpoint.tree_size, checkpoint.root_hash, checkpoint.note, checkpoint.key_id,
             checkpoint.last_position, found_at),
        )
        cur.execute("UPDATE log_state SET tree_size = ?, last_position = ?",
                    (checkpoint.tree_size, checkpoint.last_position))
        return Publication(checkpoint, foreign)

    def _refuse_moved(self, cur: Any, leaves: Sequence[LogLeaf]) -> None:
        """LogConflict if an event of ``leaves`` was moved aside since the
        publisher read it (``cablecar quarantine`` takes turns with
        publications, not with the reads before them): it is read again."""
        if not leaves:
            return
        positions = {leaf.position for leaf in leaves}
        moved = cur.execute(self.dialect.sql("SELECT position FROM quarantined_events WHERE position BETWEEN ? AND ?"),
                            (min(positions), max(positions))).fetchall()
        if any(int(r[0]) in positions for r in moved):
            raise LogConflict("events the publisher read were moved aside (cablecar quarantine) before it published:"
                              " it reads the log again")

    def checkpoint(self, tree_size: int | None = None) -> PublishedCheckpoint | None:
        d = self.dialect
        if tree_size is None:
            rows = self._rows(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints WHERE tree_size = {_HEAD}")
        else:
            rows = self._rows(d.sql(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints"
                                    f" WHERE tree_size = ? AND tree_size <= {_HEAD}"), (tree_size,))
        return self._published(rows[0]) if rows else None

    def checkpoints_after(self, tree_size: int, limit: int) -> list[PublishedCheckpoint]:
        check_page(limit)
        rows = self._rows(
            self.dialect.sql(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints WHERE tree_size > ?"
                             f" AND tree_size <= {_HEAD} ORDER BY tree_size LIMIT ?"),
            (tree_size, limit),
        )
        return [self._published(r) for r in rows]

    def checkpoints_before(self, tree_size: int | None, limit: int) -> list[PublishedCheckpoint]:
        check_page(limit)
        below = "" if tree_size is None else " AND tree_size < ?"
        rows = self._rows(
            self.dialect.sql(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints WHERE tree_size <= {_HEAD}{below}"
                             " ORDER BY tree_size DESC LIMIT ?"),
            (limit,) if tree_size is None else (tree_size, limit),
        )
        return [self._published(r) for r in rows]

    def _published(self, r: Sequence[Any]) -> PublishedCheckpoint:
        return PublishedCheckpoint(int(r[0]), _blob(r[1]), str(r[2]), str(r[3]), int(r[4]),
                                   self.dialect.time_text(r[5]))

    def game_leaf(self, game_id: str, seq: int) -> LogLeaf | None:
        rows = self._rows(
            self.dialect.sql("SELECT leaf_index, game_id, seq, position FROM log_leaves WHERE game_id = ? AND seq = ?"
                             f" AND leaf_index < {_HEAD}"),
            (game_id, seq),
        )
        return None if not rows else LogLeaf(int(rows[0][0]), str(rows[0][1]), int(rows[0][2]), int(rows[0][3]))


def _publish_postgres(cur: Any, previous_size: int, count: int, checkpoint: PublishedCheckpoint) -> Publication:
    """One publication through the owner's function (migration 0085): it computes the rows itself."""
    row = cur.execute(
        "SELECT r_outcome, r_tree_size, r_root_hash, r_created_at, r_foreign_leaves, r_foreign_nodes,"
        " r_foreign_checkpoints FROM cablecar_log_publish(%s, %s, %s, %s, %s)",
        (previous_size, checkpoint.last_position, count, checkpoint.note, checkpoint.key_id),
    ).fetchone()
    if row[0] == "busy":
        raise LogBusy("another transaction holds the log's head for longer than a publication takes (a call of"
                      " cablecar_log_publish left uncommitted?)")
    if row[0] == "conflict":
        raise LogConflict(f"the log holds {row[1]} leaves, not {previous_size}: another publisher was first")
    if row[0] == "moved":
        raise LogConflict("events the publisher read were moved aside (cablecar quarantine) before it published:"
                          " it reads the log again")
    stored = PublishedCheckpoint(int(row[1]), bytes(row[2]), checkpoint.note, checkpoint.key_id,
                                 checkpoint.last_position, format_timestamp(row[3]))
    if (stored.tree_size, stored.root_hash) != (checkpoint.tree_size, checkpoint.root_hash):
        raise ValueError(f"the database computed the tree of {stored.tree_size} leaves with another root")
    foreign = {table: int(n) for table, n in zip(LOG_TABLES, row[4:], strict=True) if n}
    return Publication(stored, foreign)
