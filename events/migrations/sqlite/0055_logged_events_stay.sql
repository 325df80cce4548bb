-- The log outranks the database (same contract as the PostgreSQL migration
-- 0080_logged_events_stay.sql): an event held by a published checkpoint of the
-- transparency log never leaves the log, not even into quarantine.

CREATE TRIGGER events_logged_stay BEFORE DELETE ON events
WHEN EXISTS (
    SELECT 1 FROM log_leaves l
    WHERE l.position = OLD.position AND l.game_id = OLD.game_id AND l.seq = OLD.seq
      AND l.leaf_index < (SELECT coalesce(max(c.tree_size), 0) FROM log_checkpoints c)
)
BEGIN
    SELECT RAISE(ABORT, 'a logged event never leaves the log: it is a leaf of a published checkpoint of the transparency log');
END;
