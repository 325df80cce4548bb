-- Webhook deliveries of the transparency log's checkpoints (issue 35; same
-- contract as the PostgreSQL migration 0055_checkpoint_deliveries.sql): a
-- delivery without a game (game_id NULL: a checkpoint's, its occurrence the
-- tree_size) kept unique per webhook and checkpoint by a partial index, the
-- webhooks' from_tree_size, and the dispatchers' cursor over log_checkpoints.
-- SQLite cannot change a column in place: the table is rebuilt, with
-- foreign-key checks deferred to the commit (webhook_attempts refers to it).
-- Its rows are set aside first and put back into the new table under the
-- same name, so that the attempts' references are whole again by the commit
-- (a rebuilt table renamed into place would leave the violations that
-- dropping the old one counted).

PRAGMA defer_foreign_keys = ON;

CREATE TABLE webhook_deliveries_copy AS SELECT * FROM webhook_deliveries;

DROP TABLE webhook_deliveries;

CREATE TABLE webhook_deliveries (
    delivery_no       INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id       TEXT NOT NULL UNIQUE,
    webhook_id        TEXT NOT NULL REFERENCES webhooks (webhook_id),
    game_id           TEXT REFERENCES games (game_id),        -- NULL: a log.checkpoint delivery
    event             TEXT NOT NULL CHECK (event <> ''),
    body              TEXT NOT NULL,
    state             TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts          INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at        TEXT NOT NULL,
    next_attempt_at   TEXT,
    delivered_at      TEXT,
    last_status_code  INTEGER,
    last_error        TEXT,
    lease_owner       TEXT,
    lease_until       TEXT,
    occurrence        INTEGER NOT NULL DEFAULT 0 CHECK (occurrence >= 0),
    UNIQUE (webhook_id, game_id, event, occurrence),
    CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL)),
    CHECK (game_id IS NOT NULL OR occurrence >= 1)
);

INSERT INTO webhook_deliveries (delivery_no, delivery_id, webhook_id, game_id, event, body, state, attempts,
                                created_at, next_attempt_at, delivered_at, last_status_code, last_error,
                                lease_owner, lease_until, occurrence)
    SELECT delivery_no, delivery_id, webhook_id, game_id, event, body, state, attempts, created_at,
           next_attempt_at, delivered_at, last_status_code, last_error, lease_owner, lease_until, occurrence
    FROM webhook_deliveries_copy;

DROP TABLE webhook_deliveries_copy;

CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (state, next_attempt_at);

CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, delivery_no);

CREATE UNIQUE INDEX webhook_deliveries_log_key ON webhook_deliveries (webhook_id, event, occurrence)
    WHERE game_id IS NULL;

ALTER TABLE webhooks ADD COLUMN from_tree_size INTEGER NOT NULL DEFAULT 0 CHECK (from_tree_size >= 0);

INSERT INTO dispatch_cursors (name, position)
    SELECT 'checkpoints', coalesce(max(tree_size), 0) FROM log_checkpoints;
