-- Tournament organisers, batches of games, webhooks and their deliveries
-- (same contract as the SQLite migration 0002_tournaments.sql).
--
-- Deliveries are work items shared by every dispatcher process: a claim
-- leases rows with UPDATE ... WHERE delivery_no IN (SELECT ... FOR UPDATE
-- SKIP LOCKED), so concurrent dispatchers take disjoint rows, and the lease
-- (lease_owner, lease_until) keeps others away while one is sending.

CREATE TABLE organisers (
    organiser_id  text PRIMARY KEY,
    name          text NOT NULL CHECK (name <> ''),
    token_hash    char(64) NOT NULL,             -- sha256 hex of the whole token
    created_at    timestamptz NOT NULL
);

CREATE TABLE batches (
    batch_id      text PRIMARY KEY,
    batch_no      bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    organiser_id  text NOT NULL REFERENCES organisers (organiser_id),
    name          text,
    game_type     text NOT NULL,
    tables        integer NOT NULL CHECK (tables >= 1),
    created_at    timestamptz NOT NULL
);

CREATE INDEX batches_organiser_idx ON batches (organiser_id, batch_no);

CREATE TABLE webhooks (
    webhook_id     text PRIMARY KEY,
    webhook_no     bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    organiser_id   text NOT NULL REFERENCES organisers (organiser_id),
    url            text NOT NULL CHECK (url <> ''),
    batch_id       text REFERENCES batches (batch_id),       -- NULL: every game of the organiser
    events         text[] NOT NULL CHECK (cardinality(events) > 0),
    secret         text NOT NULL CHECK (secret <> ''),       -- signs bodies (HMAC), so not hashed
    from_position  bigint NOT NULL CHECK (from_position >= 0),
    active         boolean NOT NULL DEFAULT true,
    created_at     timestamptz NOT NULL
);

CREATE INDEX webhooks_organiser_idx ON webhooks (organiser_id, active, webhook_no);

CREATE TABLE webhook_deliveries (
    delivery_id       text PRIMARY KEY,
    delivery_no       bigint GENERATED ALWAYS AS IDENTITY UNIQUE,  -- listing order, newest = highest
    webhook_id        text NOT NULL REFERENCES webhooks (webhook_id),
    game_id           text NOT NULL REFERENCES games (game_id),
    event             text NOT NULL CHECK (event <> ''),
    body              text NOT NULL,                               -- the exact bytes sent and signed
    state             text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts          integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at        timestamptz NOT NULL,
    next_attempt_at   timestamptz,
    delivered_at      timestamptz,
    last_status_code  integer,
    last_error        text,
    lease_owner       text,                                        -- the dispatcher sending it now
    lease_until       timestamptz,
    UNIQUE (webhook_id, game_id, event),
    CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL))
);

CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, delivery_no DESC);

CREATE TABLE webhook_attempts (
    delivery_id   text NOT NULL REFERENCES webhook_deliveries (delivery_id),
    attempt       integer NOT NULL CHECK (attempt >= 1),
    attempted_at  timestamptz NOT NULL,
    status_code   integer,
    error         text,
    duration_ms   integer NOT NULL CHECK (duration_ms >= 0),
    PRIMARY KEY (delivery_id, attempt)
);

-- How far the dispatchers have turned the global event log into deliveries.
-- It only moves in the transaction that commits the deliveries (the row is
-- locked FOR UPDATE there), so nothing is skipped across restarts.
CREATE TABLE dispatch_cursors (
    name      text PRIMARY KEY,
    position  bigint NOT NULL CHECK (position >= 0)
);

INSERT INTO dispatch_cursors (name, position) VALUES ('webhooks', 0);
