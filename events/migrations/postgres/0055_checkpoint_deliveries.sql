-- Webhook deliveries of the transparency log's checkpoints (issue 35): an
-- organiser-wide webhook may subscribe to `log.checkpoint`, one delivery per
-- published checkpoint (service/usecases/checkpoint_deliveries.py).
--
-- * A checkpoint's delivery has no game: game_id becomes nullable, and such a
--   delivery's occurrence is the checkpoint's tree_size (1 or more).  The
--   UNIQUE (webhook_id, game_id, event, occurrence) treats NULL games as
--   distinct, so a partial unique index keeps one delivery per webhook and
--   checkpoint.
-- * webhooks.from_tree_size: the latest published tree size when the webhook
--   was registered (only later checkpoints are delivered to it), as
--   from_position is for game events.
-- * The dispatchers' cursor over log_checkpoints (by tree_size), starting at
--   the latest checkpoint: no webhook could subscribe to earlier ones.

ALTER TABLE webhook_deliveries ALTER COLUMN game_id DROP NOT NULL;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_gameless_occurrence
    CHECK (game_id IS NOT NULL OR occurrence >= 1);
CREATE UNIQUE INDEX webhook_deliveries_log_key ON webhook_deliveries (webhook_id, event, occurrence)
    WHERE game_id IS NULL;

ALTER TABLE webhooks ADD COLUMN from_tree_size bigint NOT NULL DEFAULT 0 CHECK (from_tree_size >= 0);

INSERT INTO dispatch_cursors (name, position)
    SELECT 'checkpoints', coalesce(max(tree_size), 0) FROM log_checkpoints;
