-- Signed records (events/signing.py): every event carries the Ed25519
-- signature of its hash (base64url) and the id of the key that made it.  The
-- private key is the server's (its configuration), never the database's: a
-- role that can call these functions but does not hold the key cannot make a
-- record that verifies.  Events written before this migration keep NULL in
-- both columns (verify calls them unsigned); the functions below refuse an
-- event without a signature.
--
-- Signing needs the event's hash before the call, so the caller chains the
-- events on the head it knows (p_prev_hash: the hash of event p_expected,
-- which never changes once written) and the append functions check it: with
-- the version right but another head (the caller's was not known or wrong),
-- they write nothing and answer ('head', ..., r_prev_hash = the game's head),
-- and the caller signs again on that head.  The one-round-trip append stays
-- one round trip whenever the caller knows the head (it read or wrote the
-- game at that version, which is how the service acts).
-- Otherwise the functions are those of 0009 / 0011 (owner's rights, fixed
-- search_path), with the new arguments and outcome.

ALTER TABLE events ADD COLUMN signature text, ADD COLUMN key_id text;
ALTER TABLE events ADD CONSTRAINT events_signed_whole CHECK ((signature IS NULL) = (key_id IS NULL));

DROP FUNCTION cablecar_append_batch(text, bigint, text, text, text, text, text[], integer[], integer[], text[], text[],
                                    text[], text[], text);
DROP FUNCTION cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text,
                                  text[], text);
DROP FUNCTION cablecar_create_game(text, text, text, timestamptz, text, text, text[], integer[], integer[], text[],
                                   text[]);

-- An append of several events (see 0008/0009 for the steps and outcomes;
-- 'head' as above).
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
    v_version bigint;
    v_guard   boolean;
    v_used    integer;
    v_count   integer := coalesce(cardinality(p_types), 0);
    v_hash    text;
BEGIN
    IF v_count = 0 THEN
        RAISE EXCEPTION 'cablecar_append_batch needs at least one event' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_key_id IS NULL OR coalesce(cardinality(p_signatures), 0) <> v_count OR array_position(p_signatures, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'every event is signed: one signature per event and a key id' USING ERRCODE = 'invalid_parameter_value';
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
                        idempotency_key, prev_hash, hash, signature, key_id)
        SELECT r_position + e.i - 1, p_game_id, p_expected + e.i, e.type, e.version, e.payload::json,
               p_recorded_at, e.seat, p_key, (r_prev_hash || r_hashes)[e.i], r_hashes[e.i], e.signature, p_key_id
        FROM unnest(p_types, p_versions, p_seats, p_payloads, p_signatures)
             WITH ORDINALITY AS e(type, version, seat, payload, signature, i);
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

-- The common single-event append, with scalars (as in 0009; 'head' as above).
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
    v_version bigint;
    v_guard   boolean;
    v_used    integer;
BEGIN
    IF p_signature IS NULL OR p_key_id IS NULL THEN
        RAISE EXCEPTION 'every event is signed: a signature and a key id are needed' USING ERRCODE = 'invalid_parameter_value';
    END IF;
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
    IF p_prev_hash IS DISTINCT FROM r_prev_hash THEN  -- signed on another head: sign again on this one
        r_outcome := 'head';
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
                        idempotency_key, prev_hash, hash, signature, key_id)
        VALUES (r_position, p_game_id, p_expected + 1, p_type, p_schema_version, p_payload::json, p_recorded_at,
                p_seat, p_key, r_prev_hash, r_hash, p_signature, p_key_id);
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

-- A game's creation (as in 0011), its opening events signed.
CREATE FUNCTION cablecar_create_game(
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
DECLARE
    v_count    integer := coalesce(cardinality(p_types), 0);
    v_used     integer;
    v_position bigint;
    v_genesis  text := repeat('0', 64);
BEGIN
    IF coalesce(cardinality(p_hashes), 0) <> v_count THEN
        RAISE EXCEPTION 'cablecar_create_game needs one hash per event' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_count > 0 AND (p_key_id IS NULL OR coalesce(cardinality(p_signatures), 0) <> v_count
                        OR array_position(p_signatures, NULL) IS NOT NULL) THEN
        RAISE EXCEPTION 'every event is signed: one signature per event and a key id' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at, metadata)
        VALUES (p_game_id, p_game_type, p_status, v_count,
                CASE WHEN v_count = 0 THEN v_genesis ELSE p_hashes[v_count] END, p_now, p_now, p_metadata::jsonb);
    IF v_count = 0 THEN
        RETURN NULL;
    END IF;
    v_used := coalesce(nullif(current_setting('cablecar.positions_used', true), ''), '0')::integer;
    IF v_used + v_count > 65536 THEN
        RAISE EXCEPTION 'a transaction writes 1 to 65536 events, not %', v_used + v_count
            USING ERRCODE = 'program_limit_exceeded';
    END IF;
    PERFORM set_config('cablecar.positions_used', (v_used + v_count)::text, true);
    v_position := (pg_current_xact_id()::text::bigint << 16) + v_used;
    INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,
                        idempotency_key, prev_hash, hash, signature, key_id)
        SELECT v_position + e.i - 1, p_game_id, e.i, e.type, e.version, e.payload::json, p_recorded_at, e.seat,
               NULL, (v_genesis || p_hashes)[e.i], p_hashes[e.i], e.signature, p_key_id
        FROM unnest(p_types, p_versions, p_seats, p_payloads, p_signatures)
             WITH ORDINALITY AS e(type, version, seat, payload, signature, i);
    RETURN v_position;
END;
$$;

REVOKE EXECUTE ON FUNCTION
    cablecar_append_batch(text, bigint, text, text, text, text, text[], integer[], integer[], text[], text[],
                          text[], text[], text, text, text[], text),
    cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text, text[], text,
                        text, text, text),
    cablecar_create_game(text, text, text, timestamptz, text, text, text[], integer[], integer[], text[], text[],
                         text[], text)
FROM PUBLIC;
