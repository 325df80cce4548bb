-- Signed records (events/signing.py): each event's Ed25519 signature of its
-- hash (base64url) and the id of the key that made it.  NULL for the events
-- written before the store signed; every event appended since carries both.

ALTER TABLE events ADD COLUMN signature TEXT;
ALTER TABLE events ADD COLUMN key_id TEXT;
