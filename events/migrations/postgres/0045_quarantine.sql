-- Quarantine (issue 34): a damaged tail of a game's log (events that fail
-- their chain or signature check) is moved aside by an operator, `cablecar
-- quarantine GAME`, connected as the owner: every column of each event is
-- kept here, with when and why it was moved, and never deleted.  The game's
-- row is rewound to its last good event, which a signed `events_quarantined`
-- event then follows, all in one transaction (events/sql/quarantine.py).
--
-- The app role may read this table and nothing more (events/postgres/roles.py):
-- it holds no INSERT here and no DELETE on events, so it cannot move events.

CREATE TABLE quarantined_events (
    quarantine_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id          text NOT NULL REFERENCES games (game_id),
    seq              bigint NOT NULL,
    position         bigint NOT NULL,
    type             text NOT NULL,
    schema_version   integer NOT NULL,
    payload          text NOT NULL,       -- the stored JSON text, byte for byte
    recorded_at      text NOT NULL,
    seat             integer,
    idempotency_key  text,
    prev_hash        text NOT NULL,
    hash             text NOT NULL,
    signature        text,
    key_id           text,
    from_seq         bigint NOT NULL,     -- the first event moved aside with it
    quarantined_at   timestamptz NOT NULL,
    reason           text NOT NULL
);

CREATE INDEX quarantined_events_game ON quarantined_events (game_id, seq);

-- Events stay immutable, but an event may leave the log into quarantine: a
-- DELETE (which only the owner may run) is refused unless the row was copied
-- into quarantined_events first, column for column.  UPDATE and TRUNCATE
-- stay refused as before.
CREATE FUNCTION cablecar_events_leave_to_quarantine() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM quarantined_events q
        WHERE q.game_id = OLD.game_id AND q.seq = OLD.seq AND q.position = OLD.position AND q.hash = OLD.hash::text
          AND q.payload = OLD.payload::text AND q.prev_hash = OLD.prev_hash::text
          AND q.signature IS NOT DISTINCT FROM OLD.signature
    ) THEN
        RAISE EXCEPTION 'events are immutable: DELETE on events is refused (an event leaves the log only into quarantined_events)'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END;
$$;

DROP TRIGGER events_immutable ON events;

CREATE TRIGGER events_immutable
    BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION cablecar_events_immutable();

CREATE TRIGGER events_leave_to_quarantine
    BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION cablecar_events_leave_to_quarantine();
