-- Stream tickets (issue 36): single-use permissions to open one seat's event
-- stream, for a browser's EventSource, which cannot send a token.  Only the
-- ticket's keyed hash is kept; a ticket is taken with DELETE ... RETURNING and
-- expired ones are deleted when new ones are written (events/sql/tickets.py).
-- The app role may INSERT and DELETE here (events/postgres/roles.py).

CREATE TABLE stream_tickets (
    ticket_hash  text PRIMARY KEY,
    game_id      text NOT NULL REFERENCES games (game_id),
    seat         integer NOT NULL CHECK (seat >= 0),
    token_hash   text NOT NULL,
    expires_at   double precision NOT NULL  -- Unix seconds
);

CREATE INDEX stream_tickets_expiry ON stream_tickets (expires_at);
