-- A leaner append (issue 41): the same checks, outcomes and rows as
-- cablecar_append_one_timed / cablecar_append_batch_timed (migrations 0012,
-- 0030), in one function each instead of three, and in four statements
-- instead of eight:
--
--   * one read: the game row, the key's row (a left join) and the time of
--     the event the append follows (the clock verdict's last check);
--   * the UPDATE that claims the game row, as before;
--   * one INSERT of the events and the key's row (a data-modifying WITH);
--   * the watch check that decides the NOTIFY, as before.
--
-- The transaction's position counter is kept by plain assignments (no
-- PERFORM, which is a query of its own).  Each statement of a function is a
-- snapshot and an executor start; under 32 concurrent writers PostgreSQL
-- spent 0.56 ms of CPU per move, and a nested PL/pgSQL call with its own
-- search_path is a context switch of its own.
--
-- New names, the old functions kept: cablecar_rotate_seat_token_timed (0040)
-- still appends through cablecar_append_one_timed, and the benchmark serves
-- the previous version beside this one on one database
-- (`bench/run.sh --compare-with`).  `cablecar migrate --app-role` grants the
-- new ones as every SECURITY DEFINER function.

CREATE FUNCTION cablecar_append_one_lean(
    p_not_before     timestamptz,
    p_not_after      timestamptz,
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
    p_prev_hash      text,
    p_signature      text,
    p_key_id         text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hash         text
)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    v_now       timestamptz := clock_timestamp();
    v_at        timestamptz := p_recorded_at::timestamptz;
    v_version   bigint;
    v_head      text;
    v_guard     boolean;
    v_last      text;
    v_key_first bigint;
    v_key_hash  text;
    v_key_last  bigint;
    v_used      integer;
    v_set       text;
BEGIN
    -- the clock verdict (cablecar_clock_verdict, 0030): the checks that need no row
    IF p_not_after IS NOT NULL AND v_now > p_not_after THEN
        r_outcome := 'late';
        RETURN;
    END IF;
    IF p_not_before IS NOT NULL AND v_now < p_not_before THEN
        r_outcome := 'early';
        RETURN;
    END IF;
    IF abs(extract(epoch FROM v_at - v_now)) > 1.0 THEN
        r_outcome := 'clock';
        RETURN;
    END IF;
    SELECT g.version, g.last_hash, (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value),
           (SELECT e.recorded_at FROM events e WHERE p_expected > 0 AND e.game_id = p_game_id AND e.seq = p_expected),
           k.first_seq, k.request_hash, k.last_seq
        INTO v_version, v_head, v_guard, v_last, v_key_first, v_key_hash, v_key_last
        FROM games g LEFT JOIN idempotency_keys k ON p_key IS NOT NULL AND k.game_id = g.game_id AND k.key = p_key
        WHERE g.game_id = p_game_id;
    IF v_last IS NOT NULL AND v_last::timestamptz > v_at THEN
        r_outcome := 'clock';
        RETURN;
    END IF;
    -- the recorded time must say what the database decided (the domain reads deadlines from it)
    IF p_not_after IS NOT NULL AND v_at > p_not_after THEN
        r_outcome := 'late';
        RETURN;
    END IF;
    IF p_not_before IS NOT NULL AND v_at < p_not_before THEN
        r_outcome := 'early';
        RETURN;
    END IF;

    -- cablecar_append_one (0012)
    IF p_signature IS NULL OR p_key_id IS NULL THEN
        RAISE EXCEPTION 'every event is signed: a signature and a key id are needed' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_version IS NULL THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF NOT coalesce(v_guard, false) THEN
        r_outcome := 'guard_failed';
        RETURN;
    END IF;
    IF v_key_first IS NOT NULL THEN
        r_outcome := 'replayed';
        r_value := v_key_first;
        r_request_hash := v_key_hash;
        r_position := v_key_last;
        RETURN;
    END IF;
    IF v_version <> p_expected THEN
        r_outcome := 'stale';
        r_value := v_version;
        RETURN;
    END IF;
    r_prev_hash := v_head;
    IF p_prev_hash IS DISTINCT FROM r_prev_hash THEN  -- signed on another head: sign again on this one
        r_outcome := 'head';
        RETURN;
    END IF;

    r_hash := encode(sha256(convert_to(p_head || r_prev_hash || p_tail, 'UTF8')), 'hex');
    UPDATE games g SET version = p_expected + 1, last_hash = r_hash,
                       updated_at = v_at, status = coalesce(p_status, g.status)
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
    v_set := set_config('cablecar.positions_used', (v_used + 1)::text, true);
    r_position := (pg_current_xact_id()::text::bigint << 16) + v_used;
    WITH appended AS (
        INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,
                            idempotency_key, prev_hash, hash, signature, key_id)
            VALUES (r_position, p_game_id, p_expected + 1, p_type, p_schema_version, p_payload::json, p_recorded_at,
                    p_seat, p_key, r_prev_hash, r_hash, p_signature, p_key_id)
    )
    INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
        SELECT p_game_id, p_key, p_request_hash, p_expected + 1, p_expected + 1, v_at WHERE p_key IS NOT NULL;
    r_outcome := 'appended';
    r_value := p_expected + 1;
    r_request_hash := p_request_hash;
    -- what the games_notify_version trigger did, without a trigger call
    IF EXISTS (SELECT 1 FROM game_watches w WHERE w.game_id = p_game_id) THEN
        PERFORM pg_notify('cablecar_events', r_value::text || ' ' || p_game_id);
    END IF;
END;
$$;

CREATE FUNCTION cablecar_append_batch_lean(
    p_not_before   timestamptz,
    p_not_after    timestamptz,
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
    p_prev_hash    text,
    p_signatures   text[],
    p_key_id       text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hashes       text[]
)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    v_now       timestamptz := clock_timestamp();
    v_at        timestamptz := p_recorded_at::timestamptz;
    v_version   bigint;
    v_hash      text;
    v_guard     boolean;
    v_last      text;
    v_key_first bigint;
    v_key_hash  text;
    v_key_last  bigint;
    v_used      integer;
    v_set       text;
    v_count     integer := coalesce(cardinality(p_types), 0);
BEGIN
    -- the clock verdict (cablecar_clock_verdict, 0030): the checks that need no row
    IF p_not_after IS NOT NULL AND v_now > p_not_after THEN
        r_outcome := 'late';
        RETURN;
    END IF;
    IF p_not_before IS NOT NULL AND v_now < p_not_before THEN
        r_outcome := 'early';
        RETURN;
    END IF;
    IF abs(extract(epoch FROM v_at - v_now)) > 1.0 THEN
        r_outcome := 'clock';
        RETURN;
    END IF;
    SELECT g.version, g.last_hash, (p_guard_path IS NULL OR g.metadata #>> p_guard_path = p_guard_value),
           (SELECT e.recorded_at FROM events e WHERE p_expected > 0 AND e.game_id = p_game_id AND e.seq = p_expected),
           k.first_seq, k.request_hash, k.last_seq
        INTO v_version, v_hash, v_guard, v_last, v_key_first, v_key_hash, v_key_last
        FROM games g LEFT JOIN idempotency_keys k ON p_key IS NOT NULL AND k.game_id = g.game_id AND k.key = p_key
        WHERE g.game_id = p_game_id;
    IF v_last IS NOT NULL AND v_last::timestamptz > v_at THEN
        r_outcome := 'clock';
        RETURN;
    END IF;
    -- the recorded time must say what the database decided (the domain reads deadlines from it)
    IF p_not_after IS NOT NULL AND v_at > p_not_after THEN
        r_outcome := 'late';
        RETURN;
    END IF;
    IF p_not_before IS NOT NULL AND v_at < p_not_before THEN
        r_outcome := 'early';
        RETURN;
    END IF;

    -- cablecar_append_batch (0012)
    IF v_count = 0 THEN
        RAISE EXCEPTION 'cablecar_append_batch needs at least one event' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_key_id IS NULL OR coalesce(cardinality(p_signatures), 0) <> v_count OR array_position(p_signatures, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'every event is signed: one signature per event and a key id' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_version IS NULL THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
    IF NOT coalesce(v_guard, false) THEN
        r_outcome := 'guard_failed';
        RETURN;
    END IF;
    IF v_key_first IS NOT NULL THEN
        r_outcome := 'replayed';
        r_value := v_key_first;
        r_request_hash := v_key_hash;
        r_position := v_key_last;
        RETURN;
    END IF;
    IF v_version <> p_expected THEN
        r_outcome := 'stale';
        r_value := v_version;
        RETURN;
    END IF;
    IF p_prev_hash IS DISTINCT FROM v_hash THEN  -- signed on another head: sign again on this one
        r_outcome := 'head';
        r_prev_hash := v_hash;
        RETURN;
    END IF;

    r_prev_hash := v_hash;
    r_hashes := ARRAY[]::text[];
    FOR i IN 1 .. v_count LOOP
        v_hash := encode(sha256(convert_to(p_heads[i] || v_hash || p_tails[i], 'UTF8')), 'hex');
        r_hashes := r_hashes || v_hash;
    END LOOP;
    UPDATE games g SET version = p_expected + v_count, last_hash = v_hash,
                       updated_at = v_at, status = coalesce(p_status, g.status)
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
    v_set := set_config('cablecar.positions_used', (v_used + v_count)::text, true);
    r_position := (pg_current_xact_id()::text::bigint << 16) + v_used;
    WITH appended AS (
        INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,
                            idempotency_key, prev_hash, hash, signature, key_id)
            SELECT r_position + e.i - 1, p_game_id, p_expected + e.i, e.type, e.version, e.payload::json,
                   p_recorded_at, e.seat, p_key, (r_prev_hash || r_hashes)[e.i], r_hashes[e.i], e.signature, p_key_id
            FROM unnest(p_types, p_versions, p_seats, p_payloads, p_signatures)
                 WITH ORDINALITY AS e(type, version, seat, payload, signature, i)
    )
    INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
        SELECT p_game_id, p_key, p_request_hash, p_expected + 1, p_expected + v_count, v_at WHERE p_key IS NOT NULL;
    r_outcome := 'appended';
    r_value := p_expected + v_count;
    r_request_hash := p_request_hash;
    -- what the games_notify_version trigger did, without a trigger call
    IF EXISTS (SELECT 1 FROM game_watches w WHERE w.game_id = p_game_id) THEN
        PERFORM pg_notify('cablecar_events', r_value::text || ' ' || p_game_id);
    END IF;
END;
$$;
