"""Webhook deliveries' adapters, in three parts: what is sent and its HMAC
signature (:mod:`.hmac`), how it is sent to a checked public address
(:mod:`.transport`), and when a failed one is tried again (:mod:`.policy`).
The dispatcher that turns the event log into deliveries is a use case
(:mod:`service.usecases.webhook_deliveries`)."""
