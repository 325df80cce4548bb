-- Bots for every table (issue 36; same contract as the PostgreSQL migration
-- 0065_bot_fairness.sql): who created each game with bot seats (`creator`: an
-- organiser, or a hash of an anonymous creator's address), so that runners
-- claim games round-robin across creators, and when a runner last claimed the
-- game (`served_at`), so that the creator served longest ago comes first.

ALTER TABLE bot_turns ADD COLUMN creator TEXT;
ALTER TABLE bot_turns ADD COLUMN served_at TEXT;
