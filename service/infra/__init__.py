"""Infrastructure: how the service runs on its servers (gunicorn workers, ...)."""
