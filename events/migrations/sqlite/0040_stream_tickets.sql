-- Stream tickets (issue 36): single-use permissions to open one seat's event
-- stream, for a browser's EventSource, which cannot send a token.  Only the
-- ticket's keyed hash is kept; a ticket is taken with DELETE ... RETURNING and
-- expired ones are deleted when new ones are written (events/sql/tickets.py).
-- (Same contract as the PostgreSQL migration 0060_stream_tickets.sql.)

CREATE TABLE stream_tickets (
    ticket_hash  TEXT PRIMARY KEY,
    game_id      TEXT NOT NULL REFERENCES games (game_id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    token_hash   TEXT NOT NULL,
    expires_at   REAL NOT NULL           -- Unix seconds
) WITHOUT ROWID;

CREATE INDEX stream_tickets_expiry ON stream_tickets (expires_at);
