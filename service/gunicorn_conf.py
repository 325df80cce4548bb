"""gunicorn configuration for production (``gunicorn -c python:service.gunicorn_conf service.wsgi:app``).

Threaded workers (``gthread``) so Server-Sent Events streams, which wait on the
event store, do not hold a whole worker each.  The values come from the
settings declared in ``service/config.py`` (``CABLECAR_BIND``,
``CABLECAR_WORKERS``, ...); the usual ``GUNICORN_CMD_ARGS`` and command-line
options still override them.  ``cablecar serve`` uses this file too.

Each worker runs its webhook dispatcher (unless ``CABLECAR_WEBHOOKS=off``):
started once the worker has loaded the app, stopped when the worker exits.
"""

from typing import Any

from flask import Flask
from gunicorn.glogging import Logger

from service.config import Settings
from service.text import escape_controls


class EscapingLogger(Logger):
    """gunicorn's logger, with control characters in request atoms escaped:
    ``%(U)s`` is the decoded path, so ``/a%0A...`` would otherwise forge a log line."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {k: escape_controls(v) if isinstance(v, str) else v for k, v in atoms.items()}


_settings = Settings.from_env()

bind = _settings.bind
workers = _settings.workers
worker_class = "gthread"
threads = _settings.threads
timeout = _settings.worker_timeout
graceful_timeout = 20
keepalive = 5
max_requests = _settings.max_requests
max_requests_jitter = 100
accesslog = _settings.access_log
errorlog = "-"
loglevel = _settings.log_level
# Access logs never include the query string's secrets: tokens travel in headers only.
logger_class = EscapingLogger
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(b)s %(L)ss'


def post_worker_init(worker: Any) -> None:
    """Start this worker's webhook dispatcher on the app it serves."""
    from service.app import start_dispatcher

    if not isinstance(worker.wsgi, Flask) or "cablecar" not in worker.wsgi.extensions:
        # Another WSGI app under this configuration (e.g. the benchmark's baseline):
        # say so loudly, since a wrapped cablecar app would deliver no webhooks.
        worker.log.warning(
            "no webhook dispatcher in this worker: it serves %s, not the cablecar Flask app "
            "(wrap WSGI middleware around app.wsgi_app instead)",
            type(worker.wsgi).__name__,
        )
        return
    start_dispatcher(worker.wsgi)


def worker_exit(server: Any, worker: Any) -> None:
    """Let the dispatcher finish the attempt it is making (within the graceful timeout)."""
    from service.app import stop_dispatcher

    app = getattr(worker, "wsgi", None)  # absent when the worker failed to load the app
    if isinstance(app, Flask):
        stop_dispatcher(app, timeout=graceful_timeout / 2)
