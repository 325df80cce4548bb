-- The bot-turn index (events.bot_turns): per game with server-played seats,
-- since when a bot seat must act (found by the bot runners with the partial
-- index below) and the lease of the runner working on it, so that any
-- number of runners never work on one game at the same time.  Written by
-- the server after each append of such a game, claimed and released by the
-- runners: the app role needs SELECT, INSERT and UPDATE on it.

CREATE TABLE bot_turns (
    game_id        text PRIMARY KEY REFERENCES games (game_id),
    version        bigint NOT NULL CHECK (version >= 1),
    waiting_since  timestamptz,
    lease_owner    text,
    lease_until    timestamptz
);

CREATE INDEX bot_turns_waiting ON bot_turns (waiting_since) WHERE waiting_since IS NOT NULL;
