-- Tournament references and scheduled rounds (issue 40; same contract as the
-- PostgreSQL migration 0070_tournament_refs.sql): a batch's `ref` (the
-- organiser's own id) and `starts_at` (when its games start; NULL: when
-- created), fixed once written.

ALTER TABLE batches ADD COLUMN ref TEXT CHECK (ref IS NULL OR length(ref) BETWEEN 1 AND 128);
ALTER TABLE batches ADD COLUMN starts_at TEXT;

CREATE INDEX batches_ref_idx ON batches (organiser_id, ref);
CREATE INDEX games_ref_idx ON games (json_extract(metadata, '$.ref'), game_no DESC);

CREATE TRIGGER batches_refs_fixed BEFORE UPDATE OF ref, starts_at ON batches
BEGIN
    SELECT RAISE(ABORT, 'a batch''s ref and start time are fixed when it is created');
END;
