-- Events are inserted by the append path only: the append functions of 0004
-- (which run with cablecar.appending = 'on' for their duration) and game
-- creation (which sets it for its own transaction, events.postgres.store).
-- A stray INSERT elsewhere is refused.  The setting is a guard against
-- mistakes, not a secret: the protection against a hostile client is that the
-- app's role does not own the tables (it cannot disable this trigger; see
-- README "Production"), and a row written past both is reported by the
-- service as a damaged game, never replayed as if it were genuine.

CREATE FUNCTION cablecar_events_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('cablecar.appending', true), '') <> 'on' THEN
        RAISE EXCEPTION 'events are written by the append functions only: a direct INSERT into events is refused'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER events_append_only
    BEFORE INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION cablecar_events_append_only();

ALTER FUNCTION cablecar_append(text, bigint, text, text, text, text, text, text[], text)
    SET cablecar.appending = 'on';
ALTER FUNCTION cablecar_append_one(text, bigint, text, text, text, text, text, integer, text, integer, text, text,
                                   text[], text)
    SET cablecar.appending = 'on';
