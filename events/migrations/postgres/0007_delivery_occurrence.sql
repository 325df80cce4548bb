-- A game can now cause the same webhook event more than once (a seat going
-- out, per seat): deliveries are unique per (webhook, game, event,
-- occurrence), where occurrence is the seq of the event that caused it (0
-- for game.started / game.finished / game.cancelled, which happen once).

ALTER TABLE webhook_deliveries ADD COLUMN occurrence bigint NOT NULL DEFAULT 0 CHECK (occurrence >= 0);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_webhook_id_game_id_event_key;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_occurrence_key
    UNIQUE (webhook_id, game_id, event, occurrence);
