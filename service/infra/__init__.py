"""Infrastructure of the service: how it is served (gunicorn workers)."""
