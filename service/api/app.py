"""The Flask application factory."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from flask import Flask

from events import Stores
from events.encoding.timestamps import Clock, system_clock
from service.adapters.cache import StateCache
from service.adapters.signing_keys import ServerKeys
from service.api import action_route, problems, request_metrics
from service.api.jsonprovider import OrjsonProvider
from service.api.runtime import Runtime
from service.api.sse import StreamHub
from service.bootstrap import bootstrap, log_publishing, timeout_sweeper, webhook_dispatcher
from service.config import Settings
from service.usecases.checkpoints import LogPublishing
from service.usecases.timekeeper import Sweeper
from service.usecases.webhook_deliveries import WebhookDispatcher

#: ``app.extensions`` key of the webhook dispatcher :func:`start_dispatcher`
#: started on the app.
WEBHOOKS_EXTENSION = "cablecar.webhooks"
#: ``app.extensions`` key of the timeout sweeper :func:`start_sweeper` started.
SWEEPER_EXTENSION = "cablecar.sweeper"
#: ``app.extensions`` key of the transparency log's publisher :func:`start_log_publisher` started.
LOG_EXTENSION = "cablecar.log"


class _App(Flask):
    """Flask, remembering which views and hooks are plain functions: Flask
    inspects each of them again on every request (``ensure_sync``), and an
    action runs six of them.  This app has no coroutine views."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain: set[Callable[..., Any]] = set()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if func in self._plain:
            return func
        wrapped = super().ensure_sync(func)
        if wrapped is func:
            self._plain.add(func)
        return wrapped


def create_app(
    settings: Settings | None = None,
    stores: Stores | None = None,
    cache: StateCache | None = None,
    clock: Clock = system_clock,
    signing_keys: ServerKeys | None = None,
) -> Flask:
    """Build the app on what :func:`service.bootstrap.bootstrap` builds (the
    arguments are its own).  No webhook dispatcher runs until
    :func:`start_dispatcher` starts one."""
    service = bootstrap(settings, stores, cache, clock, signing_keys)
    settings = service.settings
    # No default /static/ route: the web page's files are served by routes/web.py, with its headers.
    app = _App(__name__, static_folder=None)
    app.json = OrjsonProvider(app)
    app.config["PROBLEM_BASE"] = settings.problem_base
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    queries = service.games.queries
    streams = StreamHub(queries, settings.sse_max_streams, settings.sse_max_streams_per_address, service.places)
    app.extensions["cablecar"] = Runtime(service, streams)
    problems.register(app)
    request_metrics.install(app)

    from service.api.ratelimit import install as install_rate_limit
    from service.api.routes import batches, edge, games, log, meta, organisers, records, seats, web, webhooks

    edge.install(app, settings.cors_origins)
    app.register_blueprint(meta.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(web.bp)
    app.register_blueprint(organisers.bp)
    app.register_blueprint(batches.bp)
    app.register_blueprint(webhooks.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(log.bp)
    install_rate_limit(app, settings, service.cache.redis_client, service.stores.counts)
    action_route.install(app)  # last: it reads the rate limits
    logging.getLogger("cablecar").setLevel(logging.INFO)
    return app


def start_dispatcher(app: Flask) -> WebhookDispatcher | None:
    """Start a webhook dispatcher in a daemon thread of this process, on the
    app's store (``app.extensions[WEBHOOKS_EXTENSION]``), unless
    ``settings.webhooks`` is off.  Called once per server worker (by the
    gunicorn hook in ``service/serving/gunicorn_conf.py``), so that building an app,
    as tests do, sends nothing.  It stops by itself when the store is closed."""
    rt = app.extensions["cablecar"]
    assert isinstance(rt, Runtime)
    if not rt.settings.webhooks:
        return None
    return _started(app, WEBHOOKS_EXTENSION, webhook_dispatcher(rt.service))


def start_sweeper(app: Flask) -> Sweeper | None:
    """Start this process's timeout sweeper (one of them works at a time
    across every process, see :mod:`service.usecases.timekeeper`), unless
    ``CABLECAR_TIMEOUT_SWEEP_SECONDS`` is 0.  Called once per server worker."""
    rt = app.extensions["cablecar"]
    assert isinstance(rt, Runtime)
    if rt.settings.timeout_sweep_seconds <= 0:
        return None
    return _started(app, SWEEPER_EXTENSION, timeout_sweeper(rt.service))


def stop_sweeper(app: Flask, timeout: float = 5.0) -> None:
    """Stop the sweeper :func:`start_sweeper` started, if any."""
    _stop(app, SWEEPER_EXTENSION, timeout)


def log_publisher(app: Flask) -> LogPublishing:
    """The transparency log's publisher on the app's store, signing with the
    server's current key (not started: :func:`start_log_publisher` starts it)."""
    rt = app.extensions["cablecar"]
    assert isinstance(rt, Runtime)
    return log_publishing(rt.service)


def start_log_publisher(app: Flask) -> LogPublishing:
    """Start this process's transparency log publisher (one of them publishes at
    a time across every process, see :mod:`service.usecases.checkpoints`).
    Called once per server worker."""
    return _started(app, LOG_EXTENSION, log_publisher(app))


def stop_log_publisher(app: Flask, timeout: float = 5.0) -> None:
    """Stop the publisher :func:`start_log_publisher` started, if any."""
    _stop(app, LOG_EXTENSION, timeout)


def stop_dispatcher(app: Flask, timeout: float) -> None:
    """Stop the dispatcher :func:`start_dispatcher` started, if any, waiting
    at most ``timeout`` seconds for the attempt it is making."""
    _stop(app, WEBHOOKS_EXTENSION, timeout)


class _Background(Protocol):
    def start(self) -> None: ...
    def stop(self, timeout: float) -> None: ...


B = TypeVar("B", bound=_Background)


def _started(app: Flask, key: str, worker: B) -> B:
    """``worker`` kept in the app under ``key`` (for its stop), then started."""
    app.extensions[key] = worker
    worker.start()
    return worker


def _stop(app: Flask, key: str, timeout: float) -> None:
    """Stop the worker kept under ``key``, if any (once: a second call finds nothing)."""
    worker = app.extensions.pop(key, None)
    if worker is not None:
        worker.stop(timeout)
