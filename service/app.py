"""The Flask application factory."""

from __future__ import annotations

import hashlib
import logging

from flask import Flask

import events
from events.store import EventStore
from service import problems
from service.cache import StateCache, open_cache
from service.config import Settings
from service.games import GameService
from service.runtime import Runtime


def _cache_secret(settings: Settings) -> bytes:
    material = settings.secret_key or f"cablecar-cache:{settings.database_url}:{settings.redis_url}"
    return hashlib.sha256(material.encode()).digest()


def create_app(
    settings: Settings | None = None,
    store: EventStore | None = None,
    cache: StateCache | None = None,
) -> Flask:
    """Build the app.  Without arguments everything comes from the environment
    (embedded default: SQLite under ``data/`` and an in-process cache)."""
    settings = settings or Settings.from_env()
    store = store or events.open_store(settings.database_url, settings.data_dir)
    cache = cache or open_cache(settings.redis_url, _cache_secret(settings), settings.cache_entries)
    app = Flask(__name__)
    app.config["PROBLEM_BASE"] = settings.problem_base
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["cablecar"] = Runtime(settings, store, cache, GameService(store, cache))
    problems.register(app)

    from service.ratelimit import install as install_rate_limit
    from service.routes import games, meta, records, web

    app.register_blueprint(meta.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(web.bp)
    install_rate_limit(app, settings, cache)
    logging.getLogger("cablecar").setLevel(logging.INFO)
    return app
