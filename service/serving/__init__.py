"""How the service runs: gunicorn's configuration, the WSGI entry point, the bounded workers, the health check."""
