-- The transparency log's head and the rows no publication wrote (issue 48;
-- same contract as the PostgreSQL migration 0085_log_written_by_the_owner.sql,
-- which also takes the log's writes from the server's role: SQLite has no
-- roles).
--
-- * log_state: the size and last position of the latest published tree,
--   moved by each publication (events/sql/transparency_log.py), never back.
--   A publication extends it, not whatever log_checkpoints' largest row says.
-- * log_foreign_rows: a row found beyond the head (no publication wrote one:
--   a publication writes its leaves, nodes and checkpoint at once) is moved
--   here by the next publication instead of making it fail, and reported.
--   Only such rows may leave the log's tables: the triggers of 0030 now let
--   a row beyond the head go, never one of a published tree.
--
-- log_state starts at the latest checkpoint whose last leaf holds its last
-- position (a junk row planted before this migration is not the head).

CREATE TABLE log_state (
    one            INTEGER PRIMARY KEY CHECK (one = 1),
    tree_size      INTEGER NOT NULL CHECK (tree_size >= 0),
    last_position  INTEGER NOT NULL
);

CREATE TABLE log_foreign_rows (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name  TEXT NOT NULL,
    tree_size   INTEGER NOT NULL,
    found_at    TEXT NOT NULL,
    row_data    TEXT NOT NULL
);

INSERT INTO log_state (one, tree_size, last_position)
    SELECT 1, coalesce(max(tree_size), 0), coalesce(max(last_position), 0) FROM (
        SELECT c.tree_size, c.last_position FROM log_checkpoints c
            WHERE c.tree_size > 0
              AND EXISTS (SELECT 1 FROM log_leaves l WHERE l.leaf_index = c.tree_size - 1
                                                       AND l.position = c.last_position)
            ORDER BY c.tree_size DESC LIMIT 1);

CREATE TRIGGER log_state_never_back BEFORE UPDATE ON log_state
WHEN NEW.tree_size < OLD.tree_size OR NEW.last_position < OLD.last_position
BEGIN
    SELECT RAISE(ABORT, 'the log''s head only moves forward');
END;

CREATE TRIGGER log_state_never_removed BEFORE DELETE ON log_state
BEGIN
    SELECT RAISE(ABORT, 'the log''s head is never removed');
END;

DROP TRIGGER log_leaves_no_delete;
DROP TRIGGER log_nodes_no_delete;
DROP TRIGGER log_checkpoints_no_delete;

CREATE TRIGGER log_leaves_no_delete BEFORE DELETE ON log_leaves
WHEN OLD.leaf_index < (SELECT tree_size FROM log_state)
BEGIN
    SELECT RAISE(ABORT, 'log rows are never removed');
END;

CREATE TRIGGER log_nodes_no_delete BEFORE DELETE ON log_nodes
WHEN OLD.node_index < ((SELECT tree_size FROM log_state) >> OLD.level)
BEGIN
    SELECT RAISE(ABORT, 'log rows are never removed');
END;

CREATE TRIGGER log_checkpoints_no_delete BEFORE DELETE ON log_checkpoints
WHEN OLD.tree_size <= (SELECT tree_size FROM log_state)
BEGIN
    SELECT RAISE(ABORT, 'log rows are never removed');
END;
