-- Quarantine (same contract as the PostgreSQL migration 0045_quarantine.sql):
-- a damaged tail moved aside by `cablecar quarantine`, every column kept with
-- when and why, never deleted; an event may leave the log only into it.

CREATE TABLE quarantined_events (
    quarantine_id    INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id          TEXT NOT NULL REFERENCES games (game_id),
    seq              INTEGER NOT NULL,
    position         INTEGER NOT NULL,
    type             TEXT NOT NULL,
    schema_version   INTEGER NOT NULL,
    payload          TEXT NOT NULL,
    recorded_at      TEXT NOT NULL,
    seat             INTEGER,
    idempotency_key  TEXT,
    prev_hash        TEXT NOT NULL,
    hash             TEXT NOT NULL,
    signature        TEXT,
    key_id           TEXT,
    from_seq         INTEGER NOT NULL,
    quarantined_at   TEXT NOT NULL,
    reason           TEXT NOT NULL
);

CREATE INDEX quarantined_events_game ON quarantined_events (game_id, seq);

DROP TRIGGER events_no_delete;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
WHEN NOT EXISTS (
    SELECT 1 FROM quarantined_events q
    WHERE q.game_id = OLD.game_id AND q.seq = OLD.seq AND q.position = OLD.position AND q.hash = OLD.hash
      AND q.payload = OLD.payload AND q.prev_hash = OLD.prev_hash AND q.signature IS OLD.signature
)
BEGIN
    SELECT RAISE(ABORT, 'events are immutable: DELETE on events is refused (an event leaves the log only into quarantined_events)');
END;
