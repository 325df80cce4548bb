-- Tokens, organisers and webhooks a login cannot bend (issue 48; same
-- contract as the PostgreSQL migration 0095_tokens_and_webhooks_custody.sql):
-- the hash each seat token rotation replaced (written by the append that
-- records the rotation: events/sqlite/event_log.py), a new organiser's token
-- hash must be keyed, and every webhook delivery carries the MAC of what is
-- sent.  The webhook secrets stored in the clear and the pending deliveries
-- are sealed and MAC'd once, in this migration's transaction, with the
-- server's secret (events/migrations/webhookkeys.py).

CREATE TABLE seat_token_rotations (
    game_id        TEXT NOT NULL REFERENCES games (game_id),
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    epoch          INTEGER NOT NULL CHECK (epoch >= 1),
    previous_hash  TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, epoch)
) WITHOUT ROWID;

ALTER TABLE webhook_deliveries ADD COLUMN body_mac TEXT;

CREATE TRIGGER organisers_token_hash_keyed BEFORE INSERT ON organisers
WHEN substr(NEW.token_hash, 1, 3) <> 'k1:'
BEGIN
    SELECT RAISE(ABORT, 'an organiser''s token hash is a keyed hash (k1:...)');
END;
