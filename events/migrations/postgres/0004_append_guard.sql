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
