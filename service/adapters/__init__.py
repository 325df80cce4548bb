"""What the use cases use, no Flask: the state cache, tokens, the secret and signing keys, idempotency keys,
Redis places and the webhook transport."""
