"""Infrastructure the service talks to besides the event store (Redis)."""
