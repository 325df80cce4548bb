-- Tokens, organisers and webhooks a login cannot bend (issue 48, items 3-5;
-- same contract as the SQLite migration 0070_tokens_and_webhooks_custody.sql).
--
-- * Organiser token hashes were keyed by every `cablecar migrate`: a row the
--   app role inserted with the plain SHA-256 of a token of its choosing became
--   a working organiser token.  They are keyed only in the run that applies
--   0040 (events/migrations/apply.py), and a new organiser's hash must be a
--   keyed one (the rows before are not re-checked: a plain hash left in one
--   authenticates nobody, and `cablecar migrate` names it).
-- * Webhook secrets are stored sealed (AES-GCM under a key derived from the
--   server's secret, bound to the webhook's id), and every delivery carries
--   the MAC of what is sent, made when it is created with a key the database
--   never holds: a delivery row the app role writes is refused, not sent.  The
--   secrets stored in the clear and the pending deliveries are sealed and
--   MAC'd once, by `cablecar migrate` holding the server's secret, in this
--   migration's transaction (events/migrations/webhookkeys.py).

ALTER TABLE organisers ADD CONSTRAINT organisers_token_hash_keyed CHECK (token_hash LIKE 'k1:%') NOT VALID;

ALTER TABLE webhook_deliveries ADD COLUMN body_mac text;
