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

-- The append-only guard of 0005, once per INSERT statement.
DROP TRIGGER events_append_only ON events;
CREATE TRIGGER events_append_only
    BEFORE INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION cablecar_events_append_only();

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

ALTER FUNCTION cablecar_append_batch(text, bigint, text, text, text, text, text[], integer[], integer[], text[], text[],
                                     text[], text[], text)
    SET cablecar.appending = 'on';
ALTER FUNCTION cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text,
                                   text[], text)
    SET cablecar.appending = 'on';

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
