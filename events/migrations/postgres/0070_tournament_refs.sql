-- Tournament references and scheduled rounds (issue 40): a batch carries the
-- organiser's own id (`ref`) and the time its games start (`starts_at`; NULL:
-- they started when created).
--
-- Both are fixed once written: the app role holds INSERT on batches and no
-- UPDATE (events/postgres/roles.py), so it cannot change them; the refs of a
-- game and its players, and its start time, live in the game's metadata,
-- which the trigger of 0040_who_may_act keeps as created.  The start itself
-- is an event of each game (game_started), appended like any other.

ALTER TABLE batches ADD COLUMN ref text CHECK (ref IS NULL OR length(ref) BETWEEN 1 AND 128);
ALTER TABLE batches ADD COLUMN starts_at timestamptz;

-- an event's rounds: GET /v1/batches?ref_prefix=...
CREATE INDEX batches_ref_idx ON batches (organiser_id, ref);
-- GET /v1/games?ref=...
CREATE INDEX games_ref_idx ON games ((metadata ->> 'ref'), game_no DESC);
