-- Tokens, organisers and webhooks a login cannot bend (issue 48, items 3-5;
-- same contract as the SQLite migration 0070_tokens_and_webhooks_custody.sql).
--
-- * A seat's token hash changes only with its seat_token_rotated event
--   (0040), but the database cannot check that event's signature: with the
--   app role's login alone, a rotation signed with any key planted a hash that
--   matches no token and locked the seat out.  The rotation function now keeps
--   the hash it replaces in seat_token_rotations (one row per seat and epoch,
--   written only by this owner's function: the app role reads it), so that
--   the server takes a rotated hash only when its event verifies and falls
--   back to the one before otherwise, and `cablecar quarantine` puts the one
--   before back when it moves a rotation aside (service/usecases/seat_tokens.py,
--   events/sql/token_history.py).
-- * Organiser token hashes were keyed by every `cablecar migrate`: a row the
--   app role inserted with the plain SHA-256 of a token of its choosing became
--   a working organiser token.  They are keyed only in the run that applies
--   0040 (events/migrations/apply.py), and a new organiser's hash must be a
--   keyed one (the rows before are not re-checked: a plain hash left in one
--   authenticates nobody, and `cablecar migrate` names it).
-- * Webhook secrets are stored sealed (AES-GCM under a key derived from the
--   server's secret, bound to the webhook's id), and every delivery carries
--   the MAC of what is sent, made when it is created with a key the database
--   never holds: a delivery row the app role writes is refused, not sent.  The
--   secrets stored in the clear and the pending deliveries are sealed and
--   MAC'd once, by `cablecar migrate` holding the server's secret, in this
--   migration's transaction (events/migrations/webhookkeys.py).

ALTER TABLE organisers ADD CONSTRAINT organisers_token_hash_keyed CHECK (token_hash LIKE 'k1:%') NOT VALID;

ALTER TABLE webhook_deliveries ADD COLUMN body_mac text;

CREATE TABLE seat_token_rotations (
    game_id        text NOT NULL REFERENCES games (game_id),
    seat           integer NOT NULL CHECK (seat >= 0),
    epoch          bigint NOT NULL CHECK (epoch >= 1),   -- the seq of the rotation, the epoch of its new hash
    previous_hash  text NOT NULL,                         -- the seat's hash the rotation replaced
    PRIMARY KEY (game_id, seat, epoch)
);

CREATE OR REPLACE FUNCTION cablecar_rotate_seat_token_timed(
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
DECLARE
    v_previous text;
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
    -- the game's row is this transaction's (the append claimed it): the hash read is the one replaced
    SELECT metadata -> 'seat_token_hashes' ->> p_token_seat INTO v_previous FROM games
        WHERE game_id = p_game_id AND jsonb_typeof(metadata -> 'seat_token_hashes' -> p_token_seat) = 'string';
    IF v_previous IS NULL THEN
        RAISE EXCEPTION 'seat % of game % has no token to rotate', p_token_seat, p_game_id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    -- an epoch used again (its first rotation was quarantined): the hash replaced now is the one before
    INSERT INTO seat_token_rotations (game_id, seat, epoch, previous_hash)
        VALUES (p_game_id, p_token_seat, p_expected + 1, v_previous)
        ON CONFLICT (game_id, seat, epoch) DO UPDATE SET previous_hash = EXCLUDED.previous_hash;
    PERFORM set_config('cablecar.rotating', p_game_id || ':' || p_token_seat::text, true);
    UPDATE games SET metadata = jsonb_set(metadata, ARRAY['seat_token_hashes', p_token_seat::text],
                                          to_jsonb(p_token_hash))
        WHERE game_id = p_game_id;
    PERFORM set_config('cablecar.rotating', '', true);
END;
$$;
