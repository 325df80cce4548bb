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
LANGUAGE plpgsql SET cablecar.appending = 'on' AS $$
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
LANGUAGE plpgsql SET cablecar.appending = 'on' AS $$
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
