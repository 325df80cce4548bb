"""Infrastructure of the service besides the event store: Redis, and how it is served (gunicorn workers)."""
