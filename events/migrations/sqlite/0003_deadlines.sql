-- The deadline index of timed games and the sweeper's lease
-- (same contract as the PostgreSQL migration 0006_deadlines.sql).

CREATE TABLE deadlines (
    game_id   TEXT PRIMARY KEY REFERENCES games (game_id),
    version   INTEGER NOT NULL CHECK (version >= 1),
    due_at    TEXT
) WITHOUT ROWID;

CREATE INDEX deadlines_due ON deadlines (due_at) WHERE due_at IS NOT NULL;

CREATE TABLE leases (
    name      TEXT PRIMARY KEY,
    owner     TEXT NOT NULL,
    until     TEXT NOT NULL
) WITHOUT ROWID;
