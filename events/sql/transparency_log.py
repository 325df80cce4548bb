"""The transparency log's rows on both SQL backends (see :mod:`events.recorders.transparency_log`).

A publication is one write transaction.  Publishers take turns inside it:
SQLite's ``BEGIN IMMEDIATE`` already holds the database's write lock, and on
PostgreSQL a transaction-level advisory lock (:data:`PUBLISH_LOCK`) does the
same for this log alone; the latest published size is then read again, and a
publisher that is no longer at the head writes nothing (:class:`LogConflict`).
A quarantine (:mod:`events.sql.quarantine`) takes the same turns, and a
publisher whose events were moved aside since it read them writes nothing
either: no leaf ever commits to an event that left the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.encoding.timestamps import parse_timestamp
from events.recorders.transparency_log import (
    LogConflict,
    LogEvent,
    LogLeaf,
    Node,
    PublishedCheckpoint,
    TransparencyLog,
)
from events.sql.database import SqlRecorder
from events.sql.rows import check_page

#: the PostgreSQL advisory lock key publishers take turns under ("cblog" in ASCII)
PUBLISH_LOCK = 0x63626C6F67

_CHECKPOINT_COLUMNS = "tree_size, root_hash, note, key_id, last_position, created_at"


def _blob(raw: Any) -> bytes:
    return bytes(raw)


def _copy(cur: Any, table: str, rows: Sequence[Sequence[Any]]) -> None:
    """``rows`` into ``table`` (with its column list) by PostgreSQL's COPY, in the cursor's transaction."""
    with cur.copy(f"COPY {table} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


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

    def publish_checkpoint(
        self, previous_size: int, leaves: Sequence[LogLeaf], nodes: Sequence[tuple[int, int, bytes]],
        checkpoint: PublishedCheckpoint,
    ) -> None:
        d = self.dialect
        with self._transaction() as cur:
            if d.name == "postgres":
                cur.execute(d.sql("SELECT pg_advisory_xact_lock(?)"), (PUBLISH_LOCK,))
            head = cur.execute("SELECT coalesce(max(tree_size), 0) FROM log_checkpoints").fetchone()
            if int(head[0]) != previous_size:
                raise LogConflict(f"the log holds {head[0]} leaves, not {previous_size}: another publisher was first")
            self._refuse_moved(cur, leaves)
            leaf_rows = [(leaf.leaf_index, leaf.game_id, leaf.seq, leaf.position) for leaf in leaves]
            if d.name == "postgres":
                # COPY: a publication writes ~5 rows per action, a statement each cost ~7 us of worker CPU a row
                _copy(cur, "log_leaves (leaf_index, game_id, seq, position)", leaf_rows)
                _copy(cur, "log_nodes (level, node_index, hash)", nodes)
            else:
                cur.executemany("INSERT INTO log_leaves (leaf_index, game_id, seq, position) VALUES (?, ?, ?, ?)",
                                leaf_rows)
                cur.executemany("INSERT INTO log_nodes (level, node_index, hash) VALUES (?, ?, ?)", list(nodes))
            cur.execute(
                d.sql(f"INSERT INTO log_checkpoints ({_CHECKPOINT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"),
                (checkpoint.tree_size, checkpoint.root_hash, checkpoint.note, checkpoint.key_id,
                 checkpoint.last_position, d.time_param(parse_timestamp(checkpoint.created_at))),
            )

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
            rows = self._rows(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1")
        else:
            rows = self._rows(d.sql(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints WHERE tree_size = ?"),
                              (tree_size,))
        return self._published(rows[0]) if rows else None

    def checkpoints_after(self, tree_size: int, limit: int) -> list[PublishedCheckpoint]:
        check_page(limit)
        rows = self._rows(
            self.dialect.sql(f"SELECT {_CHECKPOINT_COLUMNS} FROM log_checkpoints WHERE tree_size > ?"
                             " ORDER BY tree_size LIMIT ?"),
            (tree_size, limit),
        )
        return [self._published(r) for r in rows]

    def _published(self, r: Sequence[Any]) -> PublishedCheckpoint:
        return PublishedCheckpoint(int(r[0]), _blob(r[1]), str(r[2]), str(r[3]), int(r[4]),
                                   self.dialect.time_text(r[5]))

    def game_leaf(self, game_id: str, seq: int) -> LogLeaf | None:
        rows = self._rows(
            self.dialect.sql("SELECT leaf_index, game_id, seq, position FROM log_leaves WHERE game_id = ? AND seq = ?"),
            (game_id, seq),
        )
        return None if not rows else LogLeaf(int(rows[0][0]), str(rows[0][1]), int(rows[0][2]), int(rows[0][3]))
