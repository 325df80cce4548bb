-- One clock (issue 25): the time that decides a move is the database's.
--
-- The worker signs each event, and the signature covers recorded_at, so the
-- database cannot write its own time into the event.  Instead the worker
-- stamps recorded_at from its estimate of this database's clock (its own
-- clock plus an offset it measures from clock_timestamp()) and these
-- functions judge it, taking the time themselves, inside the append:
--   'clock' recorded_at is more than 1 s from clock_timestamp(), or earlier
--           than the game's last event (the worker re-measures and retries);
--   'late'  the append acts after a deadline running at p_expected
--           (p_not_after): a timeout wins over a late action;
--   'early' the append acts on a deadline (p_not_before, a timeout) that
--           has not passed yet.
-- The append and create functions of 0012 become SECURITY INVOKER: called from these
-- (owned by the owner) they run with the owner's rights as before; called
-- directly by the app role they can write nothing, so every append passes
-- the clock check.  grant_app_role grants only SECURITY DEFINER functions.

CREATE FUNCTION cablecar_clock_verdict(
    p_game_id     text,
    p_expected    bigint,
    p_recorded_at text,
    p_not_before  timestamptz,
    p_not_after   timestamptz
) RETURNS text
LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    v_now  timestamptz := clock_timestamp();
    v_at   timestamptz := p_recorded_at::timestamptz;
    v_last text;
BEGIN
    IF p_not_after IS NOT NULL AND v_now > p_not_after THEN
        RETURN 'late';
    END IF;
    IF p_not_before IS NOT NULL AND v_now < p_not_before THEN
        RETURN 'early';
    END IF;
    IF abs(extract(epoch FROM v_at - v_now)) > 1.0 THEN
        RETURN 'clock';
    END IF;
    IF p_expected > 0 THEN
        SELECT e.recorded_at INTO v_last FROM events e WHERE e.game_id = p_game_id AND e.seq = p_expected;
        IF FOUND AND v_last::timestamptz > v_at THEN
            RETURN 'clock';
        END IF;
    END IF;
    -- the recorded time must say what the database decided (the domain reads deadlines from it)
    IF p_not_after IS NOT NULL AND v_at > p_not_after THEN
        RETURN 'late';
    END IF;
    IF p_not_before IS NOT NULL AND v_at < p_not_before THEN
        RETURN 'early';
    END IF;
    RETURN NULL;
END;
$$;

CREATE FUNCTION cablecar_append_one_timed(
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
BEGIN
    r_outcome := cablecar_clock_verdict(p_game_id, p_expected, p_recorded_at, p_not_before, p_not_after);
    IF r_outcome IS NOT NULL THEN
        RETURN;
    END IF;
    SELECT a.r_outcome, a.r_value, a.r_request_hash, a.r_prev_hash, a.r_position, a.r_hash
        INTO r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hash
        FROM cablecar_append_one(p_game_id, p_expected, p_key, p_request_hash, p_status, p_recorded_at, p_type,
                                 p_schema_version, p_payload, p_seat, p_head, p_tail, p_guard_path, p_guard_value,
                                 p_prev_hash, p_signature, p_key_id) a;
END;
$$;

CREATE FUNCTION cablecar_append_batch_timed(
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
BEGIN
    r_outcome := cablecar_clock_verdict(p_game_id, p_expected, p_recorded_at, p_not_before, p_not_after);
    IF r_outcome IS NOT NULL THEN
        RETURN;
    END IF;
    SELECT a.r_outcome, a.r_value, a.r_request_hash, a.r_prev_hash, a.r_position, a.r_hashes
        INTO r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hashes
        FROM cablecar_append_batch(p_game_id, p_expected, p_key, p_request_hash, p_status, p_recorded_at, p_types,
                                   p_versions, p_seats, p_payloads, p_heads, p_tails, p_guard_path, p_guard_value,
                                   p_prev_hash, p_signatures, p_key_id) a;
END;
$$;

-- A game's creation: its opening events start the clocks, so their time is
-- judged too (SQLSTATE CC001: the caller measures its offset again and retries).
CREATE FUNCTION cablecar_create_game_timed(
    p_game_id     text,
    p_game_type   text,
    p_status      text,
    p_now         timestamptz,
    p_metadata    text,
    p_recorded_at text,
    p_types       text[],
    p_versions    integer[],
    p_seats       integer[],
    p_payloads    text[],
    p_hashes      text[],
    p_signatures  text[],
    p_key_id      text
) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF cablecar_clock_verdict(p_game_id, 0, p_recorded_at, NULL, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'recorded_at % is not the database''s time (%)', p_recorded_at, clock_timestamp()
            USING ERRCODE = 'CC001';
    END IF;
    RETURN cablecar_create_game(p_game_id, p_game_type, p_status, p_now, p_metadata, p_recorded_at, p_types,
                                p_versions, p_seats, p_payloads, p_hashes, p_signatures, p_key_id);
END;
$$;

ALTER FUNCTION cablecar_create_game(text, text, text, timestamptz, text, text, text[], integer[], integer[], text[],
                                    text[], text[], text) SECURITY INVOKER;
ALTER FUNCTION cablecar_append_batch(text, bigint, text, text, text, text, text[], integer[], integer[], text[],
                                     text[], text[], text[], text, text, text[], text) SECURITY INVOKER;
ALTER FUNCTION cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text,
                                   text[], text, text, text, text) SECURITY INVOKER;

REVOKE EXECUTE ON FUNCTION
    cablecar_clock_verdict(text, bigint, text, timestamptz, timestamptz),
    cablecar_append_one_timed(timestamptz, timestamptz, text, bigint, text, text, text, text, text, integer, text,
                              integer, text, text, text[], text, text, text, text),
    cablecar_append_batch_timed(timestamptz, timestamptz, text, bigint, text, text, text, text, text[], integer[],
                                integer[], text[], text[], text[], text[], text, text, text[], text),
    cablecar_create_game_timed(text, text, text, timestamptz, text, text, text[], integer[], integer[], text[],
                               text[], text[], text)
FROM PUBLIC;
