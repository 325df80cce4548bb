-- Who may act (issue 34): a game's metadata is fixed at its creation, but for
-- a seat's token hash, which changes only together with the signed
-- seat_token_rotated event that records the rotation.
--
-- * cablecar_set_metadata (0011) merged any JSON into a game's metadata: with
--   the app role's login alone, anyone could plant a token hash, replace a
--   seed or turn a bot seat into a person's.  It is gone.
-- * cablecar_rotate_seat_token_timed appends one seat_token_rotated event of
--   seat p_token_seat (through cablecar_append_one_timed: the same checks,
--   chain, signature and clock) and sets that seat's hash in the same
--   statement.  The new hash must be a keyed hash of the epoch this event
--   opens (k1:<its seq>:<64 hex>): an old hash cannot be put back.  Whoever
--   lacks the server's secret cannot make a keyed hash that matches a token
--   (service/adapters/tokens.py), and cannot sign the event: /audit names a
--   forged one.
-- * A trigger refuses every other change of a game's metadata, unless made by
--   the schema's owner itself (cablecar migrate keying old hashes).
--
-- The plain token hashes stored before are keyed by cablecar migrate, with the
-- server's secret, in the same run (events/tokenkeys.py).

DROP FUNCTION cablecar_set_metadata(text, text, text, text, timestamptz);

-- An organiser's keyed token hash ('k1:0:' and 64 hex digits) is longer than the plain one was.
ALTER TABLE organisers ALTER COLUMN token_hash TYPE text;
ALTER TABLE organisers ADD CONSTRAINT organisers_token_hash_length CHECK (length(token_hash) BETWEEN 64 AND 200);

CREATE FUNCTION cablecar_rotate_seat_token_timed(
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
    p_token_seat     integer,
    p_token_hash     text,
    OUT r_outcome      text,
    OUT r_value        bigint,
    OUT r_request_hash text,
    OUT r_prev_hash    text,
    OUT r_position     bigint,
    OUT r_hash         text
)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF p_type IS DISTINCT FROM 'seat_token_rotated' OR p_seat IS NOT NULL OR p_token_seat IS NULL
       OR (p_payload::jsonb -> 'seat') IS DISTINCT FROM to_jsonb(p_token_seat) THEN
        RAISE EXCEPTION 'a token hash changes only with one seat_token_rotated event of its seat, by no seat'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF p_token_hash IS NULL OR p_token_hash !~ ('^k1:' || (p_expected + 1)::text || ':[0-9a-f]{64}$') THEN
        RAISE EXCEPTION 'a rotated token hash is a keyed hash of the epoch its event opens (seq %)', p_expected + 1
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT a.r_outcome, a.r_value, a.r_request_hash, a.r_prev_hash, a.r_position, a.r_hash
        INTO r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hash
        FROM cablecar_append_one_timed(p_not_before, p_not_after, p_game_id, p_expected, p_key, p_request_hash,
                                       p_status, p_recorded_at, p_type, p_schema_version, p_payload, p_seat, p_head,
                                       p_tail, p_guard_path, p_guard_value, p_prev_hash, p_signature, p_key_id) a;
    IF r_outcome IS DISTINCT FROM 'appended' THEN
        RETURN;
    END IF;
    PERFORM set_config('cablecar.rotating', p_game_id || ':' || p_token_seat::text, true);
    UPDATE games SET metadata = jsonb_set(metadata, ARRAY['seat_token_hashes', p_token_seat::text],
                                          to_jsonb(p_token_hash))
        WHERE game_id = p_game_id AND jsonb_typeof(metadata -> 'seat_token_hashes' -> p_token_seat) = 'string';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'seat % of game % has no token to rotate', p_token_seat, p_game_id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    PERFORM set_config('cablecar.rotating', '', true);
END;
$$;

-- Every change of a game's metadata but the rotation above (and the owner's own) is refused.
CREATE FUNCTION cablecar_games_metadata_fixed() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    v_rotating text := coalesce(current_setting('cablecar.rotating', true), '');
    v_seat     integer;
BEGIN
    IF session_user = (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                       WHERE c.oid = TG_RELID) THEN
        RETURN NEW;
    END IF;
    IF v_rotating LIKE OLD.game_id || ':%' THEN
        v_seat := split_part(v_rotating, ':', 2)::integer;
        IF NEW.metadata = jsonb_set(OLD.metadata, ARRAY['seat_token_hashes', v_seat::text],
                                    NEW.metadata -> 'seat_token_hashes' -> v_seat) THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'the metadata of game % is fixed at its creation (a seat''s token changes only with its '
                    'seat_token_rotated event)', OLD.game_id USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER games_metadata_fixed
    BEFORE UPDATE OF metadata ON games
    FOR EACH ROW WHEN (OLD.metadata IS DISTINCT FROM NEW.metadata)
    EXECUTE FUNCTION cablecar_games_metadata_fixed();

REVOKE EXECUTE ON FUNCTION
    cablecar_rotate_seat_token_timed(timestamptz, timestamptz, text, bigint, text, text, text, text, text, integer,
                                     text, integer, text, text, text[], text, text, text, text, integer, text),
    cablecar_games_metadata_fixed()
FROM PUBLIC;
