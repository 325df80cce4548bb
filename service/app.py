"""The Flask application factory."""

from __future__ import annotations

import hashlib
import logging

from flask import Flask

import events
from events.database import Database
from service import problems
from service.cache import StateCache, open_cache
from service.config import Settings
from service.games import GameService
from service.runtime import Runtime
from service.webhooks import DispatchPolicy, WebhookDispatcher

#: ``app.extensions`` key of the app's webhook dispatcher (absent when
#: ``CABLECAR_WEBHOOKS=off``).
WEBHOOKS_EXTENSION = "cablecar.webhooks"


def _cache_secret(settings: Settings) -> bytes:
    material = settings.secret_key or f"cablecar-cache:{settings.database_url}:{settings.redis_url}"
    return hashlib.sha256(material.encode()).digest()


def create_app(
    settings: Settings | None = None,
    store: Database | None = None,
    cache: StateCache | None = None,
) -> Flask:
    """Build the app.  Without arguments everything comes from the environment
    (embedded default: SQLite under ``data/`` and an in-process cache).

    Unless ``settings.webhooks`` is off, a webhook dispatcher starts in a
    daemon thread (``app.extensions[WEBHOOKS_EXTENSION]``); it stops by
    itself when the store is closed."""
    settings = settings or Settings.from_env()
    store = store or events.open_store(settings.database_url, settings.data_dir)
    cache = cache or open_cache(
        settings.redis_url,
        _cache_secret(settings),
        settings.cache_entries,
        settings.local_cache_entries,
        settings.snapshot_every,
    )
    app = Flask(__name__)
    app.config["PROBLEM_BASE"] = settings.problem_base
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    app.json.sort_keys = False  # type: ignore[attr-defined]
    games_service = GameService(store, cache)
    app.extensions["cablecar"] = Runtime(settings, store, cache, games_service)
    problems.register(app)

    from service.ratelimit import install as install_rate_limit
    from service.routes import batches, games, meta, organisers, records, seats, web, webhooks

    app.register_blueprint(meta.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(web.bp)
    app.register_blueprint(organisers.bp)
    app.register_blueprint(batches.bp)
    app.register_blueprint(webhooks.bp)
    app.register_blueprint(seats.bp)
    install_rate_limit(app, settings, cache)
    logging.getLogger("cablecar").setLevel(logging.INFO)
    if settings.webhooks:
        dispatcher = WebhookDispatcher(store, games_service, DispatchPolicy.from_settings(settings))
        app.extensions[WEBHOOKS_EXTENSION] = dispatcher
        dispatcher.start()
    return app
