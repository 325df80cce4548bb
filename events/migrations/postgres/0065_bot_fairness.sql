-- Bots for every table (issue 36): who created each game with bot seats
-- (`creator`: an organiser, or a hash of an anonymous creator's address), so
-- that runners claim games round-robin across creators (events/sql/bot_turns.py),
-- and when a runner last claimed the game (`served_at`), so that the creator
-- served longest ago comes first.  The app role already writes bot_turns
-- (INSERT, UPDATE) and leases, where each runner keeps its heartbeat
-- (`bot-runner:<owner>`): no grant changes.

ALTER TABLE bot_turns ADD COLUMN creator text;
ALTER TABLE bot_turns ADD COLUMN served_at timestamptz;
