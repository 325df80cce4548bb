-- Counters and held places that every process on this file shares: the
-- embedded server has no Redis, so its rate limits (fixed windows) and its
-- event-stream caps (places held by open streams) are counted here, per
-- server instead of per worker.  Neither table is part of the event log:
-- rows expire (expires_at / until, Unix seconds) and are deleted freely.

CREATE TABLE shared_counts (
    key        TEXT NOT NULL,
    window_no  INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (key, window_no)
) WITHOUT ROWID;

CREATE INDEX shared_counts_expiry ON shared_counts (expires_at);

CREATE TABLE shared_places (
    place_id TEXT PRIMARY KEY,
    grp      TEXT NOT NULL,
    holder   TEXT NOT NULL,
    until    REAL NOT NULL
);

CREATE INDEX shared_places_holder ON shared_places (grp, holder, until);
CREATE INDEX shared_places_until ON shared_places (until);
