-- A game can now cause the same webhook event more than once (a seat going
-- out, per seat): deliveries are unique per (webhook, game, event,
-- occurrence), where occurrence is the seq of the event that caused it (0
-- for game.started / game.finished / game.cancelled, which happen once).
-- SQLite cannot change a table constraint in place: the table is rebuilt,
-- with foreign-key checks deferred to the commit (webhook_attempts refers to it).
-- Same contract as the PostgreSQL migration 0007_delivery_occurrence.sql.

PRAGMA defer_foreign_keys = ON;

CREATE TABLE webhook_deliveries_new (
    delivery_no       INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id       TEXT NOT NULL UNIQUE,
    webhook_id        TEXT NOT NULL REFERENCES webhooks (webhook_id),
    game_id           TEXT NOT NULL REFERENCES games (game_id),
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
    CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL))
);

INSERT INTO webhook_deliveries_new (delivery_no, delivery_id, webhook_id, game_id, event, body, state, attempts,
                                    created_at, next_attempt_at, delivered_at, last_status_code, last_error,
                                    lease_owner, lease_until)
    SELECT delivery_no, delivery_id, webhook_id, game_id, event, body, state, attempts, created_at,
           next_attempt_at, delivered_at, last_status_code, last_error, lease_owner, lease_until
    FROM webhook_deliveries;

DROP TABLE webhook_deliveries;

ALTER TABLE webhook_deliveries_new RENAME TO webhook_deliveries;

CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (state, next_attempt_at);

CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, delivery_no);
