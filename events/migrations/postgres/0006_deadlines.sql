-- The deadline index of timed games (events.deadlines): each timed game's
-- earliest running deadline, found by the timeout sweeper with the partial
-- index below; and the leases that let exactly one sweeper work at a time
-- across every worker and instance.

CREATE TABLE deadlines (
    game_id   text PRIMARY KEY REFERENCES games (game_id),
    version   bigint NOT NULL CHECK (version >= 1),
    due_at    timestamptz
);

CREATE INDEX deadlines_due ON deadlines (due_at) WHERE due_at IS NOT NULL;

CREATE TABLE leases (
    name      text PRIMARY KEY,
    owner     text NOT NULL,
    until     timestamptz NOT NULL
);
