-- cablecar_append: one append in one round trip (see events/postgres_store.py).
--
-- p_events is a JSON array with one object per event, in seq order:
--   {"type": text, "schema_version": int, "seat": int|null,
--    "payload": the canonical payload JSON *as a string*,
--    "head": text, "tail": text}
-- (strings, so the canonical texts arrive byte for byte).  The client has
-- numbered the events (seq = p_expected + i) and split each one's canonical
-- hash document around prev_hash (head, tail); the database learns prev_hash
-- once it holds the game row lock and finishes the chain here:
--     hash = sha256(utf8(head || prev_hash || tail)).
--
-- Result (one row):
--   ('appended', new version, p_request_hash, prev_hash of the first event, [[position, hash], ...])
--   ('replayed', first seq,   stored request hash, NULL, [last seq])   the key was used before
--   ('stale',    current version, NULL, NULL, NULL)
--   ('not_found', NULL, NULL, NULL, NULL)
-- A row the database refuses aborts the whole call: nothing is written.

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
    v_prev     text;
    v_position bigint;
    v_seq      bigint := p_expected;
    v_event    json;
    v_written  text[] := '{}';
    v_hit      record;
BEGIN
    SELECT g.version, g.last_hash INTO v_version, v_hash
        FROM games g WHERE g.game_id = p_game_id FOR UPDATE;
    IF NOT FOUND THEN
        r_outcome := 'not_found';
        RETURN;
    END IF;
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
    IF v_version <> p_expected THEN
        r_outcome := 'stale';
        r_value := v_version;
        RETURN;
    END IF;

    -- Global positions are drawn under a transaction-scoped lock held until
    -- commit, so they become visible in increasing order.  The key is
    -- events.postgres_store.POSITION_LOCK_KEY.
    PERFORM pg_advisory_xact_lock(222865528193026);
    r_prev_hash := v_hash;
    FOR v_event IN SELECT value FROM json_array_elements(p_events::json) LOOP
        v_seq := v_seq + 1;
        v_prev := v_hash;
        v_hash := encode(sha256(convert_to((v_event ->> 'head') || v_prev || (v_event ->> 'tail'), 'UTF8')), 'hex');
        INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat,
                            idempotency_key, prev_hash, hash)
            VALUES (p_game_id, v_seq, v_event ->> 'type', (v_event ->> 'schema_version')::integer,
                    (v_event ->> 'payload')::json, p_recorded_at, (v_event ->> 'seat')::integer,
                    p_key, v_prev, v_hash)
            RETURNING events.position INTO v_position;
        v_written := v_written || format('[%s,"%s"]', v_position, v_hash);
    END LOOP;
    IF v_seq = p_expected THEN
        RAISE EXCEPTION 'cablecar_append needs at least one event' USING ERRCODE = 'invalid_parameter_value';
    END IF;

    UPDATE games g SET version = v_seq, last_hash = v_hash, updated_at = p_recorded_at::timestamptz,
                       status = coalesce(p_status, g.status)
        WHERE g.game_id = p_game_id;
    IF p_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)
            VALUES (p_game_id, p_key, p_request_hash, p_expected + 1, v_seq, p_recorded_at::timestamptz);
    END IF;
    r_outcome := 'appended';
    r_value := v_seq;
    r_request_hash := p_request_hash;
    r_written := ('[' || array_to_string(v_written, ',') || ']')::json;
END;
$$;
