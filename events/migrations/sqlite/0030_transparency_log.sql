-- The transparency log (issue 35; same contract as the PostgreSQL migration
-- 0050_transparency_log.sql): the leaves of the Merkle tree over the global
-- log, the hashes of its perfect subtrees, and every published checkpoint;
-- rows are only ever added.  Every existing game gets its secret leaf_salt.

CREATE TABLE log_leaves (
    leaf_index  INTEGER PRIMARY KEY CHECK (leaf_index >= 0),
    game_id     TEXT NOT NULL REFERENCES games (game_id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    position    INTEGER NOT NULL UNIQUE
);

CREATE INDEX log_leaves_game ON log_leaves (game_id, seq);

CREATE TABLE log_nodes (
    level       INTEGER NOT NULL CHECK (level >= 0 AND level < 64),
    node_index  INTEGER NOT NULL CHECK (node_index >= 0),
    hash        BLOB NOT NULL CHECK (length(hash) = 32),
    PRIMARY KEY (level, node_index)
) WITHOUT ROWID;

CREATE TABLE log_checkpoints (
    tree_size      INTEGER PRIMARY KEY CHECK (tree_size >= 0),
    root_hash      BLOB NOT NULL CHECK (length(root_hash) = 32),
    note           TEXT NOT NULL,
    key_id         TEXT NOT NULL,
    last_position  INTEGER NOT NULL CHECK (last_position >= 0),
    created_at     TEXT NOT NULL
);

CREATE TRIGGER log_leaves_no_update BEFORE UPDATE ON log_leaves BEGIN SELECT RAISE(ABORT, 'log rows are never changed'); END;
CREATE TRIGGER log_leaves_no_delete BEFORE DELETE ON log_leaves BEGIN SELECT RAISE(ABORT, 'log rows are never removed'); END;
CREATE TRIGGER log_nodes_no_update BEFORE UPDATE ON log_nodes BEGIN SELECT RAISE(ABORT, 'log rows are never changed'); END;
CREATE TRIGGER log_nodes_no_delete BEFORE DELETE ON log_nodes BEGIN SELECT RAISE(ABORT, 'log rows are never removed'); END;
CREATE TRIGGER log_checkpoints_no_update BEFORE UPDATE ON log_checkpoints BEGIN SELECT RAISE(ABORT, 'log rows are never changed'); END;
CREATE TRIGGER log_checkpoints_no_delete BEFORE DELETE ON log_checkpoints BEGIN SELECT RAISE(ABORT, 'log rows are never removed'); END;

UPDATE games SET metadata = json_set(metadata, '$.leaf_salt', lower(hex(randomblob(32))))
    WHERE json_extract(metadata, '$.leaf_salt') IS NULL;
