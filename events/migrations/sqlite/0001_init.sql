-- Games, their hash-chained events, and idempotency keys (same contract as
-- the PostgreSQL schema).  Statements end with ';' at the end of a line.

CREATE TABLE games (
    game_no     INTEGER PRIMARY KEY AUTOINCREMENT,   -- listing order, newest = highest
    game_id     TEXT NOT NULL UNIQUE,
    game_type   TEXT NOT NULL,
    status      TEXT NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    last_hash   TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    metadata    TEXT NOT NULL DEFAULT '{}' CHECK (json_type(metadata) = 'object')
);

CREATE INDEX games_status_idx ON games (status, game_no);
CREATE INDEX games_type_idx ON games (game_type, game_no);
CREATE INDEX games_batch_idx ON games (json_extract(metadata, '$.batch'), game_no);

CREATE TABLE events (
    position         INTEGER PRIMARY KEY,   -- global log order (rowid), assigned under BEGIN IMMEDIATE
    game_id          TEXT NOT NULL REFERENCES games (game_id),
    seq              INTEGER NOT NULL CHECK (seq >= 1),
    type             TEXT NOT NULL CHECK (type <> ''),
    schema_version   INTEGER NOT NULL CHECK (schema_version >= 1),
    payload          TEXT NOT NULL,         -- canonical JSON text, as hashed
    recorded_at      TEXT NOT NULL,
    seat             INTEGER CHECK (seat >= 0),
    idempotency_key  TEXT,
    prev_hash        TEXT NOT NULL,
    hash             TEXT NOT NULL,
    UNIQUE (game_id, seq)
);

CREATE TABLE idempotency_keys (
    game_id       TEXT NOT NULL REFERENCES games (game_id),
    key           TEXT NOT NULL,
    request_hash  TEXT,
    first_seq     INTEGER NOT NULL,
    last_seq      INTEGER NOT NULL CHECK (last_seq >= first_seq),
    created_at    TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;

-- Immutability: the database itself refuses to change a stored event.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are immutable: UPDATE on events is refused');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are immutable: DELETE on events is refused');
END;
