-- Two roles: the owner of the schema (who runs `cablecar migrate`) and the
-- server's app role, which holds no INSERT, UPDATE, DELETE or TRUNCATE on
-- events, games or idempotency_keys (events/postgres/roles.py grants it what
-- it may do).  Every write to those three tables goes through a function
-- below, run with its owner's rights (SECURITY DEFINER) and a fixed
-- search_path (the app role cannot create objects in the schema, but the
-- search_path of the caller must not matter either).  None of these
-- functions is executable by PUBLIC: `cablecar migrate --app-role NAME`
-- grants EXECUTE to the app role.
--
-- The events_append_only trigger of 0005 trusted a setting (cablecar.appending)
-- that any role may set with set_config(); it is dropped: a role without the
-- INSERT privilege cannot insert, whatever it sets.

DROP TRIGGER IF EXISTS events_append_only ON events;
DROP FUNCTION IF EXISTS cablecar_events_append_only();

-- The append functions run as the owner.  RESET ALL first drops the
-- cablecar.appending setting 0005/0008/0009 attached (a database made from
-- the baseline never had it), so both kinds of database end up the same.
ALTER FUNCTION cablecar_append_batch(text, bigint, text, text, text, text, text[], integer[], integer[], text[], text[],
                                     text[], text[], text)
    RESET ALL;
ALTER FUNCTION cablecar_append_batch(text, bigint, text, text, text, text, text[], integer[], integer[], text[], text[],
                                     text[], text[], text)
    SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;
ALTER FUNCTION cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text,
                                   text[], text)
    RESET ALL;
ALTER FUNCTION cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text,
                                   text[], text)
    SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;

-- A game's creation: its row and its opening events (already chained by the
-- caller from the genesis hash: p_hashes[i] is event i's hash), in one call.
-- Returns the position of the first event (NULL when there is none); the
-- others follow it by 1 (the same position scheme as the append functions).
-- A taken game id fails on games_pkey.
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
    p_hashes      text[]
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
                        idempotency_key, prev_hash, hash)
        SELECT v_position + e.i - 1, p_game_id, e.i, e.type, e.version, e.payload::json, p_recorded_at, e.seat,
               NULL, (v_genesis || p_hashes)[e.i], p_hashes[e.i]
        FROM unnest(p_types, p_versions, p_seats, p_payloads) WITH ORDINALITY AS e(type, version, seat, payload, i);
    RETURN v_position;
END;
$$;

-- compare_and_set_metadata: merge p_patch (a JSON object) into the game's
-- metadata if metadata -> p_key equals p_expected (jsonb equality).
CREATE FUNCTION cablecar_set_metadata(
    p_game_id  text,
    p_key      text,
    p_expected text,
    p_patch    text,
    p_now      timestamptz
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    UPDATE games SET metadata = metadata || p_patch::jsonb, updated_at = p_now
        WHERE game_id = p_game_id AND metadata -> p_key = p_expected::jsonb;
    RETURN FOUND;
END;
$$;

-- A listener's watch of a game (migration 0008) and the game's version, in
-- one statement that locks the game row FOR SHARE (which needs UPDATE rights
-- the app role does not hold).  NULL: no such game.
CREATE FUNCTION cablecar_watch_game(p_game_id text, p_listener_pid integer) RETURNS bigint
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    WITH w AS (INSERT INTO game_watches (game_id, listener_pid) VALUES (p_game_id, p_listener_pid)
               ON CONFLICT DO NOTHING)
    SELECT version FROM games WHERE game_id = p_game_id FOR SHARE;
$$;

REVOKE EXECUTE ON FUNCTION
    cablecar_append_batch(text, bigint, text, text, text, text, text[], integer[], integer[], text[], text[],
                          text[], text[], text),
    cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text, text[], text),
    cablecar_create_game(text, text, text, timestamptz, text, text, text[], integer[], integer[], text[], text[]),
    cablecar_set_metadata(text, text, text, text, timestamptz),
    cablecar_watch_game(text, integer)
FROM PUBLIC;
