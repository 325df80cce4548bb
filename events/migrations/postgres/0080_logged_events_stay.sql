-- The log outranks the database (issue 48): an event held by a published
-- checkpoint of the transparency log (its leaf below the latest tree size) is
-- attested to everyone who kept that checkpoint, so nothing removes it, not
-- even the owner's `cablecar quarantine` (events/sql/quarantine.py refuses it
-- first and names the checkpoint; this trigger is the database's own word).
-- A quarantine moves aside only events no checkpoint holds yet.  The app role
-- gains nothing: it still holds no DELETE on events.

CREATE FUNCTION cablecar_logged_events_stay() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    leaf bigint;
BEGIN
    SELECT l.leaf_index INTO leaf FROM log_leaves l
    WHERE l.position = OLD.position AND l.game_id = OLD.game_id AND l.seq = OLD.seq
      AND l.leaf_index < (SELECT coalesce(max(c.tree_size), 0) FROM log_checkpoints c);
    IF FOUND THEN
        RAISE EXCEPTION 'event % of game % is leaf % of the transparency log: a logged event never leaves the log',
            OLD.seq, OLD.game_id, leaf
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END;
$$;

CREATE TRIGGER events_logged_stay
    BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION cablecar_logged_events_stay();

-- only the trigger calls it: nobody else may (the app role gains no function)
REVOKE EXECUTE ON FUNCTION cablecar_logged_events_stay() FROM PUBLIC;
