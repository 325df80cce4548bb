"""Webhook deliveries' adapters, in four parts: what is sent and its HMAC
signature (:mod:`.hmac`), how it is sent to a checked public address
(:mod:`.transport`), when a failed one is tried again (:mod:`.policy`), and
the sealed secrets and delivery MACs a database login cannot make (:mod:`.sealing`).
The dispatcher that turns the event log into deliveries is a use case
(:mod:`service.usecases.webhook_deliveries`)."""
