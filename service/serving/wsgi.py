"""WSGI entry point for gunicorn: ``gunicorn service.serving.wsgi:app``."""

from service.api.app import create_app

app = create_app()
