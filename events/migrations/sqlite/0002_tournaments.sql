-- Tournament organisers, batches of games, webhooks and their deliveries
-- (same contract as the PostgreSQL migration 0003_tournaments.sql).
-- Timestamps are text as events.timestamps writes them (they sort in time
-- order).  Statements end with ';' at the end of a line.

CREATE TABLE organisers (
    organiser_id  TEXT PRIMARY KEY,
    name          TEXT NOT NULL CHECK (name <> ''),
    token_hash    TEXT NOT NULL CHECK (length(token_hash) = 64),   -- sha256 hex of the whole token
    created_at    TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE batches (
    batch_no      INTEGER PRIMARY KEY AUTOINCREMENT,
    batch_id      TEXT NOT NULL UNIQUE,
    organiser_id  TEXT NOT NULL REFERENCES organisers (organiser_id),
    name          TEXT,
    game_type     TEXT NOT NULL,
    tables        INTEGER NOT NULL CHECK (tables >= 1),
    created_at    TEXT NOT NULL
);

CREATE INDEX batches_organiser_idx ON batches (organiser_id, batch_no);

CREATE TABLE webhooks (
    webhook_no     INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id     TEXT NOT NULL UNIQUE,
    organiser_id   TEXT NOT NULL REFERENCES organisers (organiser_id),
    url            TEXT NOT NULL CHECK (url <> ''),
    batch_id       TEXT REFERENCES batches (batch_id),        -- NULL: every game of the organiser
    events         TEXT NOT NULL CHECK (json_type(events) = 'array' AND json_array_length(events) > 0),
    secret         TEXT NOT NULL CHECK (secret <> ''),        -- signs bodies (HMAC), so not hashed
    from_position  INTEGER NOT NULL CHECK (from_position >= 0),
    active         INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at     TEXT NOT NULL
);

CREATE INDEX webhooks_organiser_idx ON webhooks (organiser_id, active, webhook_no);

CREATE TABLE webhook_deliveries (
    delivery_no       INTEGER PRIMARY KEY AUTOINCREMENT,      -- listing order, newest = highest
    delivery_id       TEXT NOT NULL UNIQUE,
    webhook_id        TEXT NOT NULL REFERENCES webhooks (webhook_id),
    game_id           TEXT NOT NULL REFERENCES games (game_id),
    event             TEXT NOT NULL CHECK (event <> ''),
    body              TEXT NOT NULL,                          -- the exact bytes sent and signed
    state             TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts          INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at        TEXT NOT NULL,
    next_attempt_at   TEXT,
    delivered_at      TEXT,
    last_status_code  INTEGER,
    last_error        TEXT,
    lease_owner       TEXT,                                   -- the dispatcher sending it now
    lease_until       TEXT,
    UNIQUE (webhook_id, game_id, event),
    CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL))
);

CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, delivery_no);

CREATE TABLE webhook_attempts (
    delivery_id   TEXT NOT NULL REFERENCES webhook_deliveries (delivery_id),
    attempt       INTEGER NOT NULL CHECK (attempt >= 1),
    attempted_at  TEXT NOT NULL,
    status_code   INTEGER,
    error         TEXT,
    duration_ms   INTEGER NOT NULL CHECK (duration_ms >= 0),
    PRIMARY KEY (delivery_id, attempt)
) WITHOUT ROWID;

-- How far the dispatchers have turned the global event log into deliveries.
-- It only moves in the transaction that commits the deliveries, so nothing
-- is skipped across restarts.
CREATE TABLE dispatch_cursors (
    name      TEXT PRIMARY KEY,
    position  INTEGER NOT NULL CHECK (position >= 0)
) WITHOUT ROWID;

INSERT INTO dispatch_cursors (name, position) VALUES ('webhooks', 0);
