-- Games, their hash-chained events, and idempotency keys.
--
-- games holds one mutable row per game; events is append-only (triggers
-- below refuse UPDATE, DELETE and TRUNCATE); idempotency_keys remembers which
-- seqs an Idempotency-Key wrote, and the request hash stored with it.

CREATE TABLE games (
    game_id     text PRIMARY KEY,
    game_no     bigint GENERATED ALWAYS AS IDENTITY UNIQUE,  -- listing order, newest = highest
    game_type   text NOT NULL,
    status      text NOT NULL,
    version     bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
    last_hash   char(64) NOT NULL,                             -- hash of event `version` (genesis if 0)
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    metadata    jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object')
);

CREATE INDEX games_status_idx ON games (status, game_no DESC);
CREATE INDEX games_type_idx ON games (game_type, game_no DESC);
CREATE INDEX games_batch_idx ON games ((metadata ->> 'batch'), game_no DESC);

CREATE TABLE events (
    game_id          text NOT NULL REFERENCES games (game_id),
    seq              bigint NOT NULL CHECK (seq >= 1),
    position         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,  -- global log order
    type             text NOT NULL CHECK (type <> ''),
    schema_version   integer NOT NULL CHECK (schema_version >= 1),
    payload          json NOT NULL,       -- json, not jsonb: the canonical text is kept byte for byte
    recorded_at      text NOT NULL,       -- hashed, so kept as the exact text that was hashed
    seat             integer CHECK (seat >= 0),
    idempotency_key  text,
    prev_hash        char(64) NOT NULL,
    hash             char(64) NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE idempotency_keys (
    game_id       text NOT NULL REFERENCES games (game_id),
    key           text NOT NULL,
    request_hash  text,
    first_seq     bigint NOT NULL,
    last_seq      bigint NOT NULL CHECK (last_seq >= first_seq),
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (game_id, key)
);

-- Immutability: the database itself refuses to change a stored event.
CREATE FUNCTION cablecar_events_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % on events is refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER events_immutable
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION cablecar_events_immutable();

CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION cablecar_events_immutable();

-- Wake-ups for wait_for_events: every change of a game's version is announced
-- on channel cablecar_events as '<version> <game_id>' (delivered at commit).
CREATE FUNCTION cablecar_notify_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cablecar_events', NEW.version::text || ' ' || NEW.game_id);
    RETURN NULL;
END;
$$;

CREATE TRIGGER games_notify_insert
    AFTER INSERT ON games
    FOR EACH ROW WHEN (NEW.version > 0) EXECUTE FUNCTION cablecar_notify_version();

CREATE TRIGGER games_notify_version
    AFTER UPDATE OF version ON games
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION cablecar_notify_version();
