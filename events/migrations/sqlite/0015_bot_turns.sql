-- The bot-turn index and the runners' per-game leases
-- (same contract as the PostgreSQL migration 0020_bot_turns.sql).

CREATE TABLE bot_turns (
    game_id        TEXT PRIMARY KEY REFERENCES games (game_id),
    version        INTEGER NOT NULL CHECK (version >= 1),
    waiting_since  TEXT,
    lease_owner    TEXT,
    lease_until    TEXT
) WITHOUT ROWID;

CREATE INDEX bot_turns_waiting ON bot_turns (waiting_since) WHERE waiting_since IS NOT NULL;
