-- The transparency log (issue 35): one Merkle tree (RFC 9162 §2.1) over every
-- appended event in the global log's order (events/merkle.py), extended and
-- published by the server's log publisher (service/usecases/transparency.py),
-- checkpoint by checkpoint, in one transaction each (events/sql/transparency.py).
--
-- * log_leaves: leaf index -> the event it commits to (game, seq, position);
--   its leaf hash is SHA-256(0x00 || event hash || the game's leaf_salt).
-- * log_nodes: the hash of every perfect subtree (level 0: the leaf hashes),
--   so that a root, an inclusion or a consistency proof is O(log n) rows.
-- * log_checkpoints: every published checkpoint, kept and served, with the
--   signed note and the id of the key that signed it.
--
-- Rows are only ever added: the app role gets INSERT on these tables and no
-- UPDATE or DELETE (events/postgres/roles.py), and the primary keys make a
-- second publisher's rival tree of the same size fail instead of landing.
--
-- Every game gets its leaf_salt: 32 random bytes (64 hex digits), secret
-- until the game is finished (the export reveals it).  A game's metadata is
-- fixed at its creation (0040_who_may_act.sql) except for the schema owner,
-- which is who runs this migration (`cablecar migrate`).

CREATE TABLE log_leaves (
    leaf_index  bigint PRIMARY KEY CHECK (leaf_index >= 0),
    game_id     text NOT NULL REFERENCES games (game_id),
    seq         bigint NOT NULL CHECK (seq >= 1),
    position    bigint NOT NULL UNIQUE
);

CREATE INDEX log_leaves_game ON log_leaves (game_id, seq);

CREATE TABLE log_nodes (
    level       integer NOT NULL CHECK (level >= 0 AND level < 64),
    node_index  bigint NOT NULL CHECK (node_index >= 0),
    hash        bytea NOT NULL CHECK (length(hash) = 32),
    PRIMARY KEY (level, node_index)
);

CREATE TABLE log_checkpoints (
    tree_size      bigint PRIMARY KEY CHECK (tree_size >= 0),
    root_hash      bytea NOT NULL CHECK (length(root_hash) = 32),
    note           text NOT NULL,
    key_id         text NOT NULL,
    last_position  bigint NOT NULL CHECK (last_position >= 0),
    created_at     timestamptz NOT NULL
);

UPDATE games SET metadata = metadata || jsonb_build_object(
        'leaf_salt', replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
    WHERE NOT metadata ? 'leaf_salt';
