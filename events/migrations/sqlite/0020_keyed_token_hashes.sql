-- Token hashes are keyed (issue 34): an organiser's token hash is now
-- 'k1:0:' and the HMAC of its SHA-256 under a key from the server's secret
-- (service/adapters/tokens.py), longer than the 64 hex digits the column
-- took.  SQLite cannot change a column's check in place: the table is
-- rebuilt, with foreign-key checks deferred to the commit (batches and
-- webhooks refer to it).  Its rows are set aside first and put back into the
-- new table under the same name, so that the references are whole again by
-- the commit (a rebuilt table renamed into place would leave the violations
-- that dropping the old one counted).  The plain hashes stored before are
-- keyed in the same transaction when the store opens (events/tokenkeys.py).
-- Same contract as the PostgreSQL migration 0040_who_may_act.sql.

PRAGMA defer_foreign_keys = ON;

CREATE TABLE organisers_copy AS SELECT * FROM organisers;

DROP TABLE organisers;

CREATE TABLE organisers (
    organiser_id  TEXT PRIMARY KEY,
    name          TEXT NOT NULL CHECK (name <> ''),
    token_hash    TEXT NOT NULL CHECK (length(token_hash) BETWEEN 64 AND 200),  -- keyed (or plain, until keyed)
    created_at    TEXT NOT NULL
) WITHOUT ROWID;

INSERT INTO organisers (organiser_id, name, token_hash, created_at)
    SELECT organiser_id, name, token_hash, created_at FROM organisers_copy;

DROP TABLE organisers_copy;
