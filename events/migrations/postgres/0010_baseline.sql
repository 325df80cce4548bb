-- cablecar baseline: the schema migrations 0001-0009 produce, for a FRESH
-- database, in a form an ordinary role that owns the database can apply
-- (events/migrate.py, "Baselines").
--
-- Migrations 0005, 0008 and 0009 attach the custom setting cablecar.appending
-- to the append functions (ALTER FUNCTION ... SET, LANGUAGE ... SET), which
-- PostgreSQL lets only a superuser do.  This file is those nine files, in
-- order and otherwise verbatim, without that setting and without the
-- events_append_only trigger that trusted it: migration 0011 removes both
-- from databases made by the old files too (the app role holds no INSERT on
-- events since then, which is what stops a direct insert), so every database
-- ends up with the same schema after 0011.  Existing databases never run this
-- file; fresh ones run it instead of 0001-0009, then 0011 onwards.

-- ===== 0001_init.sql ===============================================

-- Games, their hash-chained events, and idempotency keys.
--
-- games holds one mutable row per game; events is append-only (triggers
-- below refuse UPDATE, DELETE and TRUNCATE); idempotency_keys remembers which
-- seqs an Idempotency-Key wrote, and the request hash stored with it.

CREATE TABLE games (
    game_id     text PRIMARY KEY,
    game_no     bigint GENERATED ALWAYS AS IDENTITY UNIQUE,  -- listing order, newest = highest
    game_type   text NOT NULL,
    status      text NOT NULL,
    version     bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
    last_hash   char(64) NOT NULL,                             -- hash of event `version` (genesis if 0)
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    metadata    jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object')
);

CREATE INDEX games_status_idx ON games (status, game_no DESC);
CREATE INDEX games_type_idx ON games (game_type, game_no DESC);
CREATE INDEX games_batch_idx ON games ((metadata ->> 'batch'), game_no DESC);

CREATE TABLE events (
    game_id          text NOT NULL REFERENCES games (game_id),
    seq              bigint NOT NULL CHECK (seq >= 1),
    position         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,  -- global log order
    type             text NOT NULL CHECK (type <> ''),
    schema_version   integer NOT NULL CHECK (schema_version >= 1),
    payload          json NOT NULL,       -- json, not jsonb: the canonical text is kept byte for byte
    recorded_at      text NOT NULL,       -- hashed, so kept as the exact text that was hashed
    seat             integer CHECK (seat >= 0),
    idempotency_key  text,
    prev_hash        char(64) NOT NULL,
    hash             char(64) NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE idempotency_keys (
    game_id       text NOT NULL REFERENCES games (game_id),
    key           text NOT NULL,
    request_hash  text,
    first_seq     bigint NOT NULL,
    last_seq      bigint NOT NULL CHECK (last_seq >= first_seq),
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (game_id, key)
);

-- Immutability: the database itself refuses to change a stored event.
CREATE FUNCTION cablecar_events_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % on events is refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER events_immutable
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION cablecar_events_immutable();

CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION cablecar_events_immutable();

-- Wake-ups for wait_for_events: every change of a game's version is announced
-- on channel cablecar_events as '<version> <game_id>' (delivered at commit).
CREATE FUNCTION cablecar_notify_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cablecar_events', NEW.version::text || ' ' || NEW.game_id);
    RETURN NULL;
END;
$$;

CREATE TRIGGER games_notify_insert
    AFTER INSERT ON games
    FOR EACH ROW WHEN (NEW.version > 0) EXECUTE FUNCTION cablecar_notify_version();

CREATE TRIGGER games_notify_version
    AFTER UPDATE OF version ON games
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION cablecar_notify_version();

-- ===== 0002_append_function.sql ====================================

-- cablecar_append / cablecar_append_one: one append in one round trip
-- (called by events/postgres_store.py).
--
-- The client numbers the events (seq = p_expected + i) and splits each one's
-- canonical hash document around prev_hash (head, tail); the database
-- finishes the chain: hash = sha256(utf8(head || prev_hash || tail)).
--
-- Steps: read the game row (no lock); replay a known idempotency key or
-- refuse a stale version; chain the events on the row's last_hash; claim the
-- row with UPDATE ... WHERE version = p_expected.  That guard holds only if
-- nobody appended in between, and then last_hash is still the hash the
-- events were chained on (the hash of event p_expected never changes).  A
-- writer that loses the race waits for the winner's commit, finds no row to
-- update and reports stale (or replayed, for a concurrent retry of the same
-- key).  The row lock taken by the UPDATE serialises writers of one game;
-- the global position lock is taken after it, just before the inserts.
-- (A row lock by SELECT ... FOR UPDATE followed by the UPDATE cost twice as
-- much as the guarded UPDATE alone.)
--
-- cablecar_append takes the events as p_events, a JSON array of
--   {"type": text, "schema_version": int, "seat": int|null,
--    "payload": the canonical payload JSON *as a string*, "head": text, "tail": text}
-- (strings, so the canonical texts arrive byte for byte) and returns one row:
--   ('appended', new version, p_request_hash, prev_hash of the first event, [[position, hash], ...])
--   ('replayed', first seq, stored request hash, NULL, [last seq])
--   ('stale', current version, NULL, NULL, NULL)
--   ('not_found', NULL, NULL, NULL, NULL)
-- cablecar_append_one takes a single event as scalars (no JSON to take apart:
-- about half the server time) and returns the same with r_position / r_hash
-- for the one event (r_position = last seq when replayed).
-- A row the database refuses aborts the whole call: nothing is written.

-- The checks both append functions make before writing, and again after
-- losing the race for the game row: a repeated idempotency key replays,
-- otherwise a version other than p_expected is stale.  p_version is the
-- version just read (NULL: read it now).  r_outcome is NULL when the append
-- may go ahead.
CREATE FUNCTION cablecar_append_precheck(
    p_game_id  text,
    p_expected bigint,
    p_key      text,
    p_version  bigint,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_written      json
)
LANGUAGE plpgsql AS $$
DECLARE
    v_hit record;
BEGIN
    IF p_key IS NOT NULL THEN
        SELECT k.request_hash, k.first_seq, k.last_seq INTO v_hit
            FROM idempotency_keys k WHERE k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            r_outcome := 'replayed';
            r_value := v_hit.first_seq;
            r_request_hash := v_hit.request_hash;
            r_written := json_build_array(v_hit.last_seq);
            RETURN;
        END IF;
    END IF;
    IF p_version IS NULL THEN
        SELECT g.version INTO p_version FROM games g WHERE g.game_id = p_game_id;
        IF NOT FOUND THEN
            r_outcome := 'not_found';
            RETURN;
        END IF;
    END IF;
    IF p_version <> p_expected THEN
        r_outcome := 'stale';
        r_value := p_version;
    END IF;
END;
$$;

CREATE FUNCTION cablecar_append(
    p_game_id      text,
    p_expected     bigint,
    p_key          text,
    p_request_hash text,
    p_status       text,
    p_recorded_at  text,
    p_events       text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_written      json
)
LANGUAGE plpgsql AS $$
DECLARE
    v_version  bigint;
    v_hash     text;
    v_position bigint;
    v_seq      bigint := p_expected;
    v_events   json[];
    v_hashes   text[];
    v_written  text[] := '{}';
BEGIN
    SELECT g.version, g.last_hash INTO v_version, v_hash FROM games g WHERE g.game_id = p_game_id;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF p_key IS NOT NULL OR v_version <> p_expected THEN
        SELECT c.r_outcome, c.r_value, c.r_request_hash, c.r_written
            INTO r_outcome, r_value, r_request_hash, r_written
            FROM cablecar_append_precheck(p_game_id, p_expected, p_key, v_version) c;
        IF r_outcome IS NOT NULL THEN
            RETURN;
        END IF;
    END IF;

    -- Chain the batch on the hash of event p_expected, then claim the game
    -- row: the guard "version = p_expected" holds only if nobody appended
    -- since, in which case last_hash is still the hash we chained on.
    v_events := ARRAY(SELECT value FROM json_array_elements(p_events::json));
    IF coalesce(cardinality(v_events), 0) = 0 THEN
        RAISE EXCEPTION 'cablecar_append needs at least one event' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    v_hashes := ARRAY[v_hash];
    FOR i IN 1 .. cardinality(v_events) LOOP
        v_hash := encode(sha256(convert_to((v_events[i] ->> 'head') || v_hash || (v_events[i] ->> 'tail'), 'UTF8')), 'hex');
        v_hashes := v_hashes || v_hash;
    END LOOP;
    UPDATE games g SET version = p_expected + cardinality(v_events), last_hash = v_hash,
                       updated_at = p_recorded_at::timestamptz, status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id AND g.version = p_expected;
    IF NOT FOUND THEN  -- another writer got there first (we waited for its commit)
        SELECT c.r_outcome, c.r_value, c.r_request_hash, c.r_written
            INTO r_outcome, r_value, r_request_hash, r_written
            FROM cablecar_append_precheck(p_game_id, p_expected, p_key, NULL) c;
        RETURN;
    END IF;

    -- Global positions are drawn under a transaction-scoped lock held until
    -- commit, so they become visible in increasing order.  The key is
    -- events.postgres_store.POSITION_LOCK_KEY.
    PERFORM pg_advisory_xact_lock(222865528193026);
    FOR i IN 1 .. cardinality(v_events) LOOP
        v_seq := v_seq + 1;
        INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat,
                            idempotency_key, prev_hash, hash)
            VALUES (p_game_id, v_seq, v_events[i] ->> 'type', (v_events[i] ->> 'schema_version')::integer,
                    (v_events[i] ->> 'payload')::json, p_recorded_at, (v_events[i] ->> 'seat')::integer,
                    p_key, v_hashes[i], v_hashes[i + 1])
            RETURNING events.position INTO v_position;
        v_written := v_written || format('[%s,"%s"]', v_position, v_hashes[i + 1]);
    END LOOP;
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, v_seq, p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := v_seq;
    r_request_hash := p_request_hash;
    r_prev_hash := v_hashes[1];
    r_written := ('[' || array_to_string(v_written, ',') || ']')::json;
END;
$$;

-- The common single-event append (see the top of this file).
CREATE FUNCTION cablecar_append_one(
    p_game_id        text,
    p_expected       bigint,
    p_key            text,
    p_request_hash   text,
    p_status         text,
    p_recorded_at    text,
    p_type           text,
    p_schema_version integer,
    p_payload        text,
    p_seat           integer,
    p_head           text,
    p_tail           text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hash         text
)
LANGUAGE plpgsql AS $$
DECLARE
    v_version bigint;
    v_written json;
BEGIN
    SELECT g.version, g.last_hash INTO v_version, r_prev_hash FROM games g WHERE g.game_id = p_game_id;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF p_key IS NOT NULL OR v_version <> p_expected THEN
        SELECT c.r_outcome, c.r_value, c.r_request_hash, c.r_written
            INTO r_outcome, r_value, r_request_hash, v_written
            FROM cablecar_append_precheck(p_game_id, p_expected, p_key, v_version) c;
        IF r_outcome IS NOT NULL THEN
            r_prev_hash := NULL;
            r_position := (v_written ->> 0)::bigint;
            RETURN;
        END IF;
    END IF;

    r_hash := encode(sha256(convert_to(p_head || r_prev_hash || p_tail, 'UTF8')), 'hex');
    UPDATE games g SET version = p_expected + 1, last_hash = r_hash,
                       updated_at = p_recorded_at::timestamptz, status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id AND g.version = p_expected;
    IF NOT FOUND THEN  -- another writer got there first (we waited for its commit)
        SELECT c.r_outcome, c.r_value, c.r_request_hash, c.r_written
            INTO r_outcome, r_value, r_request_hash, v_written
            FROM cablecar_append_precheck(p_game_id, p_expected, p_key, NULL) c;
        r_prev_hash := NULL;
        r_hash := NULL;
        r_position := (v_written ->> 0)::bigint;
        RETURN;
    END IF;

    PERFORM pg_advisory_xact_lock(222865528193026);  -- POSITION_LOCK_KEY, as in cablecar_append
    INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat,
                        idempotency_key, prev_hash, hash)
        VALUES (p_game_id, p_expected + 1, p_type, p_schema_version, p_payload::json, p_recorded_at,
                p_seat, p_key, r_prev_hash, r_hash)
        RETURNING events.position INTO r_position;
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, p_expected + 1,
                    p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := p_expected + 1;
    r_request_hash := p_request_hash;
END;
$$;

-- ===== 0003_tournaments.sql ========================================

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

-- ===== 0004_append_guard.sql =======================================

-- The append functions of 0002 with a metadata guard (events.store.MetadataGuard):
-- p_guard_path / p_guard_value (both NULL: no guard) name a string the game's
-- metadata must hold, e.g. ('{seat_token_hashes,2}', <hash>): the acting
-- seat's token has not been rotated.  The guard is checked when the row is
-- first read (outcome 'guard_failed', nothing written) and again in the
-- UPDATE that claims the row, so a rotation committed while the append
-- waited for the row lock is seen too.  Outcomes otherwise as in 0002.

DROP FUNCTION cablecar_append(text, bigint, text, text, text, text, text);
DROP FUNCTION cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text);

CREATE FUNCTION cablecar_append(
    p_game_id      text,
    p_expected     bigint,
    p_key          text,
    p_request_hash text,
    p_status       text,
    p_recorded_at  text,
    p_events       text,
    p_guard_path   text[],
    p_guard_value  text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_written      json
)
LANGUAGE plpgsql AS $$
DECLARE
    v_version  bigint;
    v_guard    boolean;
    v_hash     text;
    v_position bigint;
    v_seq      bigint := p_expected;
    v_events   json[];
    v_hashes   text[];
    v_written  text[] := '{}';
BEGIN
    SELECT g.version, g.last_hash, (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value)
        INTO v_version, v_hash, v_guard FROM games g WHERE g.game_id = p_game_id;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF NOT coalesce(v_guard, false) THEN
        r_outcome := 'guard_failed';
        RETURN;
    END IF;
    IF p_key IS NOT NULL OR v_version <> p_expected THEN
        SELECT c.r_outcome, c.r_value, c.r_request_hash, c.r_written
            INTO r_outcome, r_value, r_request_hash, r_written
            FROM cablecar_append_precheck(p_game_id, p_expected, p_key, v_version) c;
        IF r_outcome IS NOT NULL THEN
            RETURN;
        END IF;
    END IF;

    -- Chain the batch on the hash of event p_expected, then claim the game
    -- row: the guard "version = p_expected" holds only if nobody appended
    -- since, in which case last_hash is still the hash we chained on.
    v_events := ARRAY(SELECT value FROM json_array_elements(p_events::json));
    IF coalesce(cardinality(v_events), 0) = 0 THEN
        RAISE EXCEPTION 'cablecar_append needs at least one event' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    v_hashes := ARRAY[v_hash];
    FOR i IN 1 .. cardinality(v_events) LOOP
        v_hash := encode(sha256(convert_to((v_events[i] ->> 'head') || v_hash || (v_events[i] ->> 'tail'), 'UTF8')), 'hex');
        v_hashes := v_hashes || v_hash;
    END LOOP;
    UPDATE games g SET version = p_expected + cardinality(v_events), last_hash = v_hash,
                       updated_at = p_recorded_at::timestamptz, status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id AND g.version = p_expected
          AND (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value);
    IF NOT FOUND THEN  -- another writer got there first (we waited for its commit)
        SELECT c.r_outcome, c.r_value, c.r_request_hash, c.r_written
            INTO r_outcome, r_value, r_request_hash, r_written
            FROM cablecar_append_precheck(p_game_id, p_expected, p_key, NULL) c;
        r_outcome := coalesce(r_outcome, 'guard_failed');  -- same version: the metadata changed
        RETURN;
    END IF;

    -- Global positions are drawn under a transaction-scoped lock held until
    -- commit, so they become visible in increasing order.  The key is
    -- events.postgres_store.POSITION_LOCK_KEY.
    PERFORM pg_advisory_xact_lock(222865528193026);
    FOR i IN 1 .. cardinality(v_events) LOOP
        v_seq := v_seq + 1;
        INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat,
                            idempotency_key, prev_hash, hash)
            VALUES (p_game_id, v_seq, v_events[i] ->> 'type', (v_events[i] ->> 'schema_version')::integer,
                    (v_events[i] ->> 'payload')::json, p_recorded_at, (v_events[i] ->> 'seat')::integer,
                    p_key, v_hashes[i], v_hashes[i + 1])
            RETURNING events.position INTO v_position;
        v_written := v_written || format('[%s,"%s"]', v_position, v_hashes[i + 1]);
    END LOOP;
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, v_seq, p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := v_seq;
    r_request_hash := p_request_hash;
    r_prev_hash := v_hashes[1];
    r_written := ('[' || array_to_string(v_written, ',') || ']')::json;
END;
$$;

-- The common single-event append (see the top of this file).
CREATE FUNCTION cablecar_append_one(
    p_game_id        text,
    p_expected       bigint,
    p_key            text,
    p_request_hash   text,
    p_status         text,
    p_recorded_at    text,
    p_type           text,
    p_schema_version integer,
    p_payload        text,
    p_seat           integer,
    p_head           text,
    p_tail           text,
    p_guard_path     text[],
    p_guard_value    text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hash         text
)
LANGUAGE plpgsql AS $$
DECLARE
    v_version bigint;
    v_guard   boolean;
    v_written json;
BEGIN
    SELECT g.version, g.last_hash, (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value)
        INTO v_version, r_prev_hash, v_guard FROM games g WHERE g.game_id = p_game_id;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF NOT coalesce(v_guard, false) THEN
        r_outcome := 'guard_failed';
        r_prev_hash := NULL;
        RETURN;
    END IF;
    IF p_key IS NOT NULL OR v_version <> p_expected THEN
        SELECT c.r_outcome, c.r_value, c.r_request_hash, c.r_written
            INTO r_outcome, r_value, r_request_hash, v_written
            FROM cablecar_append_precheck(p_game_id, p_expected, p_key, v_version) c;
        IF r_outcome IS NOT NULL THEN
            r_prev_hash := NULL;
            r_position := (v_written ->> 0)::bigint;
            RETURN;
        END IF;
    END IF;

    r_hash := encode(sha256(convert_to(p_head || r_prev_hash || p_tail, 'UTF8')), 'hex');
    UPDATE games g SET version = p_expected + 1, last_hash = r_hash,
                       updated_at = p_recorded_at::timestamptz, status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id AND g.version = p_expected
          AND (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value);
    IF NOT FOUND THEN  -- another writer got there first (we waited for its commit)
        SELECT c.r_outcome, c.r_value, c.r_request_hash, c.r_written
            INTO r_outcome, r_value, r_request_hash, v_written
            FROM cablecar_append_precheck(p_game_id, p_expected, p_key, NULL) c;
        r_outcome := coalesce(r_outcome, 'guard_failed');  -- same version: the metadata changed
        r_prev_hash := NULL;
        r_hash := NULL;
        r_position := (v_written ->> 0)::bigint;
        RETURN;
    END IF;

    PERFORM pg_advisory_xact_lock(222865528193026);  -- POSITION_LOCK_KEY, as in cablecar_append
    INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat,
                        idempotency_key, prev_hash, hash)
        VALUES (p_game_id, p_expected + 1, p_type, p_schema_version, p_payload::json, p_recorded_at,
                p_seat, p_key, r_prev_hash, r_hash)
        RETURNING events.position INTO r_position;
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, p_expected + 1,
                    p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := p_expected + 1;
    r_request_hash := p_request_hash;
END;
$$;

-- ===== 0005_append_only_inserts.sql ================================

-- Events are inserted by the append path only: the append functions of 0004
-- (which run with cablecar.appending = 'on' for their duration) and game
-- creation (which sets it for its own transaction, events.postgres.store).
-- A stray INSERT elsewhere is refused.  The setting is a guard against
-- mistakes, not a secret: the protection against a hostile client is that the
-- app's role does not own the tables (it cannot disable this trigger; see
-- README "Production"), and a row written past both is reported by the
-- service as a damaged game, never replayed as if it were genuine.

-- (baseline: the append-only trigger and the setting it trusted are left out; see the top)

-- ===== 0006_deadlines.sql ==========================================

-- The deadline index of timed games (events.deadlines): each timed game's
-- earliest running deadline, found by the timeout sweeper with the partial
-- index below; and the leases that let exactly one sweeper work at a time
-- across every worker and instance.

CREATE TABLE deadlines (
    game_id   text PRIMARY KEY REFERENCES games (game_id),
    version   bigint NOT NULL CHECK (version >= 1),
    due_at    timestamptz
);

CREATE INDEX deadlines_due ON deadlines (due_at) WHERE due_at IS NOT NULL;

CREATE TABLE leases (
    name      text PRIMARY KEY,
    owner     text NOT NULL,
    until     timestamptz NOT NULL
);

-- ===== 0007_delivery_occurrence.sql ================================

-- A game can now cause the same webhook event more than once (a seat going
-- out, per seat): deliveries are unique per (webhook, game, event,
-- occurrence), where occurrence is the seq of the event that caused it (0
-- for game.started / game.finished / game.cancelled, which happen once).

ALTER TABLE webhook_deliveries ADD COLUMN occurrence bigint NOT NULL DEFAULT 0 CHECK (occurrence >= 0);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_webhook_id_game_id_event_key;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_occurrence_key
    UNIQUE (webhook_id, game_id, event, occurrence);

-- ===== 0008_global_log_without_lock.sql ============================

-- Global positions without the global lock (events/postgres/store.py,
-- "Global positions"): the transaction-id / snapshot-xmin scheme of
-- transactional-outbox readers, with the pair (transaction id, index) packed
-- into the one bigint position so the log's cursor stays one number:
--
--   position = (top-level transaction id (xid8) << 16) + index of the event
--              among the events this transaction inserted (0 .. 65535)
--
-- and read_all returns only positions below (pg_snapshot_xmin(pg_current_snapshot()) << 16):
-- every transaction with an id below the oldest one still running has ended,
-- and any transaction that commits later has an id >= that xmin, so its
-- positions are above everything a reader has been handed.  Positions are
-- unique (one transaction id, distinct indexes) and only grow along a game
-- (its next append starts after the previous one committed, so it has a
-- larger transaction id).  No lock is held: appends to different games
-- commit in parallel.
--
-- Also here, for fewer statements per append: the idempotency pre-check is
-- inlined (it was a second PL/pgSQL function called on every keyed append),
-- a batch arrives as arrays and is inserted by one INSERT ... SELECT FROM
-- unnest instead of JSON taken apart plus one INSERT per event, and the
-- append-only guard runs once per INSERT statement instead of once per row.

-- Existing positions (identity values, assigned under the old lock) must
-- stay below every position drawn from now on; they are at most the number
-- of events, so this holds unless some transaction wrote 65,536 events per
-- transaction id ever used.
DO $$
BEGIN
    IF coalesce((SELECT max(position) FROM events), 0) >= (pg_current_xact_id()::text::bigint << 16) THEN
        RAISE EXCEPTION 'existing positions reach the new scheme''s range; renumbering is needed first';
    END IF;
END;
$$;

ALTER TABLE events ALTER COLUMN position DROP IDENTITY IF EXISTS;

-- Positions for p_count events of the current transaction: the first one;
-- the others follow it by 1.  The count used so far lives in a
-- transaction-local setting, so several inserts in one transaction (game
-- creation) never collide.
CREATE FUNCTION cablecar_draw_positions(p_count integer) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_used integer := coalesce(nullif(current_setting('cablecar.positions_used', true), ''), '0')::integer;
BEGIN
    IF p_count < 1 OR v_used + p_count > 65536 THEN
        RAISE EXCEPTION 'a transaction writes 1 to 65536 events, not %', v_used + p_count
            USING ERRCODE = 'program_limit_exceeded';
    END IF;
    PERFORM set_config('cablecar.positions_used', (v_used + p_count)::text, true);
    RETURN (pg_current_xact_id()::text::bigint << 16) + v_used;
END;
$$;

ALTER TABLE events ALTER COLUMN position SET DEFAULT cablecar_draw_positions(1);

-- (baseline: the append-only guard of 0005 is left out; see the top)

DROP FUNCTION cablecar_append(text, bigint, text, text, text, text, text, text[], text);
DROP FUNCTION cablecar_append_precheck(text, bigint, text, bigint);  -- inlined below
DROP FUNCTION cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text,
                                  text[], text);

-- An append of several events: the arrays hold, per event, its type,
-- schema_version, seat, canonical payload text and hash document halves
-- (head, tail).  Returns one row:
--   ('appended', new version, p_request_hash, prev_hash of the first event, first position, hashes)
--   ('replayed', first seq, stored request hash, NULL, last seq, NULL)
--   ('stale', current version, NULL, NULL, NULL, NULL)
--   ('not_found' | 'guard_failed', NULL, ...)
CREATE FUNCTION cablecar_append_batch(
    p_game_id      text,
    p_expected     bigint,
    p_key          text,
    p_request_hash text,
    p_status       text,
    p_recorded_at  text,
    p_types        text[],
    p_versions     integer[],
    p_seats        integer[],
    p_payloads     text[],
    p_heads        text[],
    p_tails        text[],
    p_guard_path   text[],
    p_guard_value  text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hashes       text[]
)
LANGUAGE plpgsql AS $$
DECLARE
    v_version bigint;
    v_guard   boolean;
    v_count   integer := coalesce(cardinality(p_types), 0);
    v_hash    text;
BEGIN
    IF v_count = 0 THEN
        RAISE EXCEPTION 'cablecar_append_batch needs at least one event' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT g.version, g.last_hash, (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value)
        INTO v_version, v_hash, v_guard FROM games g WHERE g.game_id = p_game_id;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF NOT coalesce(v_guard, false) THEN
        r_outcome := 'guard_failed';
        RETURN;
    END IF;
    IF p_key IS NOT NULL THEN
        SELECT 'replayed', k.first_seq, k.request_hash, k.last_seq INTO r_outcome, r_value, r_request_hash, r_position
            FROM idempotency_keys k WHERE k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    IF v_version <> p_expected THEN
        r_outcome := 'stale';
        r_value := v_version;
        RETURN;
    END IF;

    r_prev_hash := v_hash;
    r_hashes := ARRAY[]::text[];
    FOR i IN 1 .. v_count LOOP
        v_hash := encode(sha256(convert_to(p_heads[i] || v_hash || p_tails[i], 'UTF8')), 'hex');
        r_hashes := r_hashes || v_hash;
    END LOOP;
    UPDATE games g SET version = p_expected + v_count, last_hash = v_hash,
                       updated_at = p_recorded_at::timestamptz, status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id AND g.version = p_expected
          AND (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value);
    IF NOT FOUND THEN  -- another writer got there first (we waited for its commit)
        r_prev_hash := NULL;
        r_hashes := NULL;
        SELECT 'replayed', k.first_seq, k.request_hash, k.last_seq INTO r_outcome, r_value, r_request_hash, r_position
            FROM idempotency_keys k WHERE p_key IS NOT NULL AND k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
        SELECT g.version INTO r_value FROM games g WHERE g.game_id = p_game_id;
        r_outcome := CASE WHEN r_value <> p_expected THEN 'stale' ELSE 'guard_failed' END;  -- same version: the metadata changed
        IF r_outcome = 'guard_failed' THEN
            r_value := NULL;
        END IF;
        RETURN;
    END IF;

    r_position := cablecar_draw_positions(v_count);
    INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,
                        idempotency_key, prev_hash, hash)
        SELECT r_position + e.i - 1, p_game_id, p_expected + e.i, e.type, e.version, e.payload::json,
               p_recorded_at, e.seat, p_key, (r_prev_hash || r_hashes)[e.i], r_hashes[e.i]
        FROM unnest(p_types, p_versions, p_seats, p_payloads) WITH ORDINALITY AS e(type, version, seat, payload, i);
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, p_expected + v_count,
                    p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := p_expected + v_count;
    r_request_hash := p_request_hash;
END;
$$;

-- The common single-event append, with scalars: the same steps and outcomes
-- (r_position = last seq when replayed; r_hash the event's hash).
CREATE FUNCTION cablecar_append_one(
    p_game_id        text,
    p_expected       bigint,
    p_key            text,
    p_request_hash   text,
    p_status         text,
    p_recorded_at    text,
    p_type           text,
    p_schema_version integer,
    p_payload        text,
    p_seat           integer,
    p_head           text,
    p_tail           text,
    p_guard_path     text[],
    p_guard_value    text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hash         text
)
LANGUAGE plpgsql AS $$
DECLARE
    v_version bigint;
    v_guard   boolean;
BEGIN
    SELECT g.version, g.last_hash, (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value)
        INTO v_version, r_prev_hash, v_guard FROM games g WHERE g.game_id = p_game_id;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF NOT coalesce(v_guard, false) THEN
        r_outcome := 'guard_failed';
        r_prev_hash := NULL;
        RETURN;
    END IF;
    IF p_key IS NOT NULL THEN
        SELECT 'replayed', k.first_seq, k.request_hash, k.last_seq INTO r_outcome, r_value, r_request_hash, r_position
            FROM idempotency_keys k WHERE k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            r_prev_hash := NULL;
            RETURN;
        END IF;
    END IF;
    IF v_version <> p_expected THEN
        r_outcome := 'stale';
        r_value := v_version;
        r_prev_hash := NULL;
        RETURN;
    END IF;

    r_hash := encode(sha256(convert_to(p_head || r_prev_hash || p_tail, 'UTF8')), 'hex');
    UPDATE games g SET version = p_expected + 1, last_hash = r_hash,
                       updated_at = p_recorded_at::timestamptz, status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id AND g.version = p_expected
          AND (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value);
    IF NOT FOUND THEN  -- another writer got there first (we waited for its commit)
        r_prev_hash := NULL;
        r_hash := NULL;
        SELECT 'replayed', k.first_seq, k.request_hash, k.last_seq INTO r_outcome, r_value, r_request_hash, r_position
            FROM idempotency_keys k WHERE p_key IS NOT NULL AND k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
        SELECT g.version INTO r_value FROM games g WHERE g.game_id = p_game_id;
        r_outcome := CASE WHEN r_value <> p_expected THEN 'stale' ELSE 'guard_failed' END;  -- same version: the metadata changed
        IF r_outcome = 'guard_failed' THEN
            r_value := NULL;
        END IF;
        RETURN;
    END IF;

    r_position := cablecar_draw_positions(1);
    INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,
                        idempotency_key, prev_hash, hash)
        VALUES (r_position, p_game_id, p_expected + 1, p_type, p_schema_version, p_payload::json, p_recorded_at,
                p_seat, p_key, r_prev_hash, r_hash);
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, p_expected + 1,
                    p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := p_expected + 1;
    r_request_hash := p_request_hash;
END;
$$;

-- (baseline: no cablecar.appending setting on the functions; see the top)

-- NOTIFY only for games someone waits on.  PostgreSQL serialises the commits
-- of all notifying transactions on one lock (async.c, PreCommit_Notify), so
-- a NOTIFY on every append was a second global commit order.  A listening
-- connection (events/postgres/listener.py) records the games its process
-- waits on here, under its backend pid; rows of connections that are gone
-- are swept by the next listener to connect, and only cost a spare NOTIFY.
-- A registration locks the game row FOR SHARE in the same statement, so an
-- append either committed before it (the waiter reads the new version) or
-- runs its trigger after it committed (and sees the row).
CREATE UNLOGGED TABLE game_watches (
    game_id      text NOT NULL,
    listener_pid integer NOT NULL,
    PRIMARY KEY (game_id, listener_pid)
);

CREATE OR REPLACE FUNCTION cablecar_notify_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM game_watches w WHERE w.game_id = NEW.game_id) THEN
        PERFORM pg_notify('cablecar_events', NEW.version::text || ' ' || NEW.game_id);
    END IF;
    RETURN NULL;
END;
$$;

-- ===== 0009_leaner_append.sql ======================================

-- Less work inside an append, found with bench/bench_append_profile.py
-- (pg_stat_statements with track = all, auto_explain with nested statements);
-- the before/after figures are in bench/results/THROUGHPUT.md.
--
-- * Positions are drawn inline: the call of cablecar_draw_positions (a second
--   PL/pgSQL function per append) is gone from the append functions; the
--   function stays as the column default for the rows a game's creation inserts.
-- * The NOTIFY for a watched game is sent by the append functions after their
--   UPDATE, as the games_notify_version trigger did (same statement order, so
--   the watch/notify argument of migration 0008 holds): one trigger call per
--   append less.  Only the append functions change a game's version.
-- * The foreign keys from events and idempotency_keys to games are dropped:
--   they re-checked, once per inserted row, a game row the append function
--   has just read, guarded and updated in the same transaction (and holds
--   locked), and that a creation inserts in the same transaction before its
--   events.  No other path inserts into these tables (events_append_only
--   admits only the append functions and a creation), and games rows are
--   never deleted.
-- * SET cablecar.appending is declared in the functions' definitions (it was
--   added by ALTER FUNCTION; CREATE OR REPLACE would otherwise drop it).

ALTER TABLE events DROP CONSTRAINT events_game_id_fkey;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_game_id_fkey;

DROP TRIGGER games_notify_version ON games;

CREATE OR REPLACE FUNCTION cablecar_append_batch(
    p_game_id      text,
    p_expected     bigint,
    p_key          text,
    p_request_hash text,
    p_status       text,
    p_recorded_at  text,
    p_types        text[],
    p_versions     integer[],
    p_seats        integer[],
    p_payloads     text[],
    p_heads        text[],
    p_tails        text[],
    p_guard_path   text[],
    p_guard_value  text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hashes       text[]
)
LANGUAGE plpgsql AS $$
DECLARE
    v_version bigint;
    v_guard   boolean;
    v_used    integer;
    v_count   integer := coalesce(cardinality(p_types), 0);
    v_hash    text;
BEGIN
    IF v_count = 0 THEN
        RAISE EXCEPTION 'cablecar_append_batch needs at least one event' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT g.version, g.last_hash, (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value)
        INTO v_version, v_hash, v_guard FROM games g WHERE g.game_id = p_game_id;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF NOT coalesce(v_guard, false) THEN
        r_outcome := 'guard_failed';
        RETURN;
    END IF;
    IF p_key IS NOT NULL THEN
        SELECT 'replayed', k.first_seq, k.request_hash, k.last_seq INTO r_outcome, r_value, r_request_hash, r_position
            FROM idempotency_keys k WHERE k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    IF v_version <> p_expected THEN
        r_outcome := 'stale';
        r_value := v_version;
        RETURN;
    END IF;

    r_prev_hash := v_hash;
    r_hashes := ARRAY[]::text[];
    FOR i IN 1 .. v_count LOOP
        v_hash := encode(sha256(convert_to(p_heads[i] || v_hash || p_tails[i], 'UTF8')), 'hex');
        r_hashes := r_hashes || v_hash;
    END LOOP;
    UPDATE games g SET version = p_expected + v_count, last_hash = v_hash,
                       updated_at = p_recorded_at::timestamptz, status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id AND g.version = p_expected
          AND (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value);
    IF NOT FOUND THEN  -- another writer got there first (we waited for its commit)
        r_prev_hash := NULL;
        r_hashes := NULL;
        SELECT 'replayed', k.first_seq, k.request_hash, k.last_seq INTO r_outcome, r_value, r_request_hash, r_position
            FROM idempotency_keys k WHERE p_key IS NOT NULL AND k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
        SELECT g.version INTO r_value FROM games g WHERE g.game_id = p_game_id;
        r_outcome := CASE WHEN r_value <> p_expected THEN 'stale' ELSE 'guard_failed' END;  -- same version: the metadata changed
        IF r_outcome = 'guard_failed' THEN
            r_value := NULL;
        END IF;
        RETURN;
    END IF;

    v_used := coalesce(nullif(current_setting('cablecar.positions_used', true), ''), '0')::integer;
    IF v_used + v_count > 65536 THEN
        RAISE EXCEPTION 'a transaction writes 1 to 65536 events, not %', v_used + v_count
            USING ERRCODE = 'program_limit_exceeded';
    END IF;
    PERFORM set_config('cablecar.positions_used', (v_used + v_count)::text, true);
    r_position := (pg_current_xact_id()::text::bigint << 16) + v_used;
    INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,
                        idempotency_key, prev_hash, hash)
        SELECT r_position + e.i - 1, p_game_id, p_expected + e.i, e.type, e.version, e.payload::json,
               p_recorded_at, e.seat, p_key, (r_prev_hash || r_hashes)[e.i], r_hashes[e.i]
        FROM unnest(p_types, p_versions, p_seats, p_payloads) WITH ORDINALITY AS e(type, version, seat, payload, i);
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, p_expected + v_count,
                    p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := p_expected + v_count;
    r_request_hash := p_request_hash;
    -- what the games_notify_version trigger did, without a trigger call
    IF EXISTS (SELECT 1 FROM game_watches w WHERE w.game_id = p_game_id) THEN
        PERFORM pg_notify('cablecar_events', r_value::text || ' ' || p_game_id);
    END IF;
END;
$$;

-- The common single-event append, with scalars: the same steps and outcomes
-- (r_position = last seq when replayed; r_hash the event's hash).
CREATE OR REPLACE FUNCTION cablecar_append_one(
    p_game_id        text,
    p_expected       bigint,
    p_key            text,
    p_request_hash   text,
    p_status         text,
    p_recorded_at    text,
    p_type           text,
    p_schema_version integer,
    p_payload        text,
    p_seat           integer,
    p_head           text,
    p_tail           text,
    p_guard_path     text[],
    p_guard_value    text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hash         text
)
LANGUAGE plpgsql AS $$
DECLARE
    v_version bigint;
    v_guard   boolean;
    v_used    integer;
BEGIN
    SELECT g.version, g.last_hash, (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value)
        INTO v_version, r_prev_hash, v_guard FROM games g WHERE g.game_id = p_game_id;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF NOT coalesce(v_guard, false) THEN
        r_outcome := 'guard_failed';
        r_prev_hash := NULL;
        RETURN;
    END IF;
    IF p_key IS NOT NULL THEN
        SELECT 'replayed', k.first_seq, k.request_hash, k.last_seq INTO r_outcome, r_value, r_request_hash, r_position
            FROM idempotency_keys k WHERE k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            r_prev_hash := NULL;
            RETURN;
        END IF;
    END IF;
    IF v_version <> p_expected THEN
        r_outcome := 'stale';
        r_value := v_version;
        r_prev_hash := NULL;
        RETURN;
    END IF;

    r_hash := encode(sha256(convert_to(p_head || r_prev_hash || p_tail, 'UTF8')), 'hex');
    UPDATE games g SET version = p_expected + 1, last_hash = r_hash,
                       updated_at = p_recorded_at::timestamptz, status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id AND g.version = p_expected
          AND (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value);
    IF NOT FOUND THEN  -- another writer got there first (we waited for its commit)
        r_prev_hash := NULL;
        r_hash := NULL;
        SELECT 'replayed', k.first_seq, k.request_hash, k.last_seq INTO r_outcome, r_value, r_request_hash, r_position
            FROM idempotency_keys k WHERE p_key IS NOT NULL AND k.game_id = p_game_id AND k.key = p_key;
        IF FOUND THEN
            RETURN;
        END IF;
        SELECT g.version INTO r_value FROM games g WHERE g.game_id = p_game_id;
        r_outcome := CASE WHEN r_value <> p_expected THEN 'stale' ELSE 'guard_failed' END;  -- same version: the metadata changed
        IF r_outcome = 'guard_failed' THEN
            r_value := NULL;
        END IF;
        RETURN;
    END IF;

    v_used := coalesce(nullif(current_setting('cablecar.positions_used', true), ''), '0')::integer;
    IF v_used + 1 > 65536 THEN
        RAISE EXCEPTION 'a transaction writes 1 to 65536 events, not %', v_used + 1
            USING ERRCODE = 'program_limit_exceeded';
    END IF;
    PERFORM set_config('cablecar.positions_used', (v_used + 1)::text, true);
    r_position := (pg_current_xact_id()::text::bigint << 16) + v_used;
    INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,
                        idempotency_key, prev_hash, hash)
        VALUES (r_position, p_game_id, p_expected + 1, p_type, p_schema_version, p_payload::json, p_recorded_at,
                p_seat, p_key, r_prev_hash, r_hash);
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, p_expected + 1,
                    p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := p_expected + 1;
    r_request_hash := p_request_hash;
    -- what the games_notify_version trigger did, without a trigger call
    IF EXISTS (SELECT 1 FROM game_watches w WHERE w.game_id = p_game_id) THEN
        PERFORM pg_notify('cablecar_events', r_value::text || ' ' || p_game_id);
    END IF;
END;
$$;
