"""The Flask application factory."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from flask import Flask

import events
from events.database import Database
from events.encoding.timestamps import Clock, system_clock
from events.integrity.keyset import KeySet
from events.recorders.counts import SharedCounts, SharedPlaces
from events.recorders.tickets import StreamTickets
from service.adapters.cache import StateCache, open_cache
from service.adapters.pooled_store import pooled
from service.adapters.secret_key import require_secret_key, token_key
from service.adapters.signing_keys import ServerKeys, load_server_keys
from service.adapters.tokens import TokenHasher
from service.adapters.webhooks.policy import DispatchPolicy
from service.api import action_route, metrics, problems
from service.api.jsonprovider import OrjsonProvider
from service.api.runtime import Runtime
from service.api.sse import StreamHub
from service.config import Settings
from service.usecases.auth import TokenCheck
from service.usecases.bot_turns import BotTurns
from service.usecases.commands import GameCommands
from service.usecases.queries import GameQueries
from service.usecases.stream_tickets import TicketOffice
from service.usecases.timekeeper import Sweeper, Timekeeper
from service.usecases.transparency import LogProofs, LogPublisher, LogPublishing, check_interval, check_origin
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


def wire_games(
    store: Database, cache: StateCache, hasher: TokenHasher, clock: Clock = system_clock, keys: KeySet | None = None
) -> tuple[GameQueries, GameCommands, Timekeeper]:
    """The game queries and commands on ``store`` (reading pages from its
    reader, checking signatures against ``keys``, tokens with ``hasher``),
    with their timekeeper and the bot-turn index writer: what the app and
    the bot runner share."""
    queries = GameQueries(store, cache, reader=store.reader, keys=keys)
    commands = GameCommands(queries, TokenCheck(store, hasher))
    timekeeper = Timekeeper(queries, store)
    queries.timekeeper, timekeeper.commands = timekeeper, commands
    commands.bot_turns = BotTurns(store, clock)
    return queries, commands, timekeeper


def create_app(
    settings: Settings | None = None,
    store: Database | None = None,
    cache: StateCache | None = None,
    clock: Clock = system_clock,
    keys: ServerKeys | None = None,
) -> Flask:
    """Build the app.  Without arguments everything comes from the environment
    (embedded default: SQLite in ``settings.data_path()`` and an in-process cache).
    Raises :class:`service.adapters.secret_key.MissingSecretKey` for PostgreSQL without a
    secret key, :class:`~service.adapters.signing_keys.SigningKeyError` without
    a signing key (``keys``: the configured ones by default; a ``store``
    given must sign with ``keys.signer``).
    No webhook dispatcher runs until :func:`start_dispatcher` starts one.
    ``clock`` is this process's clock for bot turns (tests pass the one
    their store runs on); deadlines follow the database's clock, which the
    store measures (:mod:`events.recorders.deadlines`)."""
    settings = settings or Settings.from_env()
    require_secret_key(settings)
    check_interval(settings.log_interval)
    check_origin(settings.log_origin)
    keys = keys or load_server_keys(settings)
    hasher = TokenHasher(token_key(settings))
    store = store or events.open_store(
        settings.database_url,
        settings.data_path(),
        pool_size=settings.db_pool_size, group_commit=settings.db_group_commit,
        timeouts=settings.db_timeouts(),
        read_url=settings.read_database_url,
        signer=keys.signer,
        rekey=hasher.rekey,
    )
    store = pooled(store)  # under gevent, SQLite's calls in native threads (service/adapters/pooled_store.py)
    cache = cache or open_cache(settings)
    # No default /static/ route: the web page's files are served by routes/web.py, with its headers.
    app = _App(__name__, static_folder=None)
    app.json = OrjsonProvider(app)
    app.config["PROBLEM_BASE"] = settings.problem_base
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    queries, commands, timekeeper = wire_games(store, cache, hasher, clock, keys.key_set())
    assert commands.bot_turns is not None
    commands.bot_turns.require_runner = True  # the server refuses a bot seat no runner would play
    # What every worker shares: Redis when configured, else the store (rate limits, stream places, stream tickets).
    shared = store if isinstance(store, SharedCounts) else None
    places: SharedPlaces | None = shared
    tickets: StreamTickets = store
    if cache.redis_client is not None:
        from service.adapters.redis_places import RedisPlaces
        from service.adapters.redis_tickets import RedisTickets

        places = RedisPlaces(cache.redis_client)
        tickets = RedisTickets(cache.redis_client)
    streams = StreamHub(queries, settings.sse_max_streams, settings.sse_max_streams_per_address, places)
    app.extensions["cablecar"] = Runtime(settings, store, cache, queries, commands, streams, timekeeper, keys,
                                         commands.tokens, LogProofs(store, store),
                                         TicketOffice(tickets, commands.tokens))
    problems.register(app)
    metrics.install(app)

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
    install_rate_limit(app, settings, cache.redis_client, shared)
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
    return _started(app, WEBHOOKS_EXTENSION,
                    WebhookDispatcher(rt.store, rt.queries, DispatchPolicy.from_settings(rt.settings)))


def start_sweeper(app: Flask) -> Sweeper | None:
    """Start this process's timeout sweeper (one of them works at a time
    across every process, see :mod:`service.usecases.timekeeper`), unless
    ``CABLECAR_TIMEOUT_SWEEP_SECONDS`` is 0.  Called once per server worker."""
    rt = app.extensions["cablecar"]
    assert isinstance(rt, Runtime)
    if rt.settings.timeout_sweep_seconds <= 0:
        return None
    return _started(app, SWEEPER_EXTENSION, Sweeper(rt.timekeeper, rt.settings.timeout_sweep_seconds))


def stop_sweeper(app: Flask, timeout: float = 5.0) -> None:
    """Stop the sweeper :func:`start_sweeper` started, if any."""
    _stop(app, SWEEPER_EXTENSION, timeout)


def log_publisher(app: Flask) -> LogPublishing:
    """The transparency log's publisher on the app's store, signing with the
    server's current key (not started: :func:`start_log_publisher` starts it)."""
    rt = app.extensions["cablecar"]
    assert isinstance(rt, Runtime)
    publisher = LogPublisher(rt.store, rt.keys.signer, rt.settings.log_origin, rt.store)
    return LogPublishing(publisher, rt.store, rt.settings.log_interval)


def start_log_publisher(app: Flask) -> LogPublishing:
    """Start this process's transparency log publisher (one of them publishes at
    a time across every process, see :mod:`service.usecases.transparency`).
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
