"""Webhook deliveries, in four parts: what is sent and its signature
(:mod:`.signing`), how it is sent to a checked public address
(:mod:`.transport`), when a failed one is tried again (:mod:`.policy`), and
the dispatcher that turns the event log into deliveries (:mod:`.dispatcher`)."""
