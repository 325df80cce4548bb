"""The one place that builds the service: the stores, the cache, the keys and
every use case, each handed what it uses in its constructor (cosmicpython's
``bootstrap.py``).  The Flask app (:mod:`service.api.app`), the command line
(``cablecar``), the bot runners and the benchmarks all build through here.

One loop is closed here and nowhere else: the game queries settle timeouts
a read finds due (:class:`~service.usecases.timekeeper.Timekeeper`), which
appends through the commands, which read through the queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import events
from events import Stores
from events.encoding.timestamps import Clock, system_clock
from events.integrity.keyset import KeySet
from events.integrity.signing import Signer
from events.migrations.keying import ServerKeying
from events.recorders.counts import SharedPlaces
from events.recorders.tickets import StreamTickets
from service.adapters.cache import StateCache, open_cache
from service.adapters.pooled_store import pooled
from service.adapters.secret_key import ServerSecrets, require_secret_key
from service.adapters.signing_keys import ServerKeys, load_server_keys
from service.adapters.tokens import TokenHasher
from service.adapters.webhooks.policy import DispatchPolicy
from service.config import Settings
from service.usecases.auth import TokenCheck
from service.usecases.batches import BatchService
from service.usecases.bot_turns import BotTurns
from service.usecases.checkpoint_notes import CheckpointNotes, VerifiedLog
from service.usecases.checkpoints import LogProofs, LogPublisher, LogPublishing, check_interval, check_origin
from service.usecases.commands import GameCommands
from service.usecases.creation import GameCreation
from service.usecases.listing import GameListing
from service.usecases.organisers import OrganiserService
from service.usecases.queries import GameQueries
from service.usecases.seat_tokens import VerifiedRotations
from service.usecases.server_stream import ServerStream
from service.usecases.stream_tickets import TicketOffice
from service.usecases.timekeeper import Sweeper, Timekeeper
from service.usecases.webhook_deliveries import WebhookDispatcher


def open_stores(settings: Settings, signer: Signer | None, keying: ServerKeying | None = None, *,
                pool_size: int | None = None, read_replica: bool = True) -> Stores:
    """The configured event store (``DATABASE_URL``, else the embedded file in
    the data folder), signing with ``signer``."""
    return events.open_store(
        settings.database_url,
        settings.data_path(),
        pool_size=settings.db_pool_size if pool_size is None else pool_size,
        group_commit=settings.db_group_commit,
        timeouts=settings.db_timeouts(),
        read_url=settings.read_database_url if read_replica else None,
        signer=signer,
        keying=keying,
    )


class Games(NamedTuple):
    """The game use cases on one store: reads, writes, creation, timeouts."""

    queries: GameQueries
    commands: GameCommands
    timekeeper: Timekeeper


def wire_games(stores: Stores, cache: StateCache, hasher: TokenHasher, clock: Clock = system_clock,
               key_set: KeySet | None = None, require_runner: bool = False) -> Games:
    """The game queries and commands on ``stores`` (pages from its reader,
    signatures checked against ``key_set``, tokens with ``hasher``), with
    their timekeeper and the bot-turn index writer (``require_runner``: a bot
    seat no runner would play is refused)."""
    queries = GameQueries(stores.events, cache, reader=stores.reader, keys=key_set, quarantine=stores.quarantine,
                          log=stores.log)
    # a rotated seat hash acts only if its event verifies (service/usecases/seat_tokens.py)
    tokens = TokenCheck(stores.events, stores.tournaments, hasher, VerifiedRotations(queries))
    creation = GameCreation(queries, tokens, BotTurns(stores.bot_turns, clock, require_runner=require_runner))
    commands = GameCommands(queries, tokens, creation)
    timekeeper = Timekeeper(queries, stores.deadlines, commands)
    queries.timekeeper = timekeeper  # the loop of the module docs
    return Games(queries, commands, timekeeper)


@dataclass(frozen=True)
class Service:
    """Everything one server process builds once."""

    settings: Settings
    stores: Stores
    cache: StateCache
    signing_keys: ServerKeys
    #: what the server's secret makes: token hashes, sealed webhook secrets, delivery MACs
    secrets: ServerSecrets
    games: Games
    #: every token check (:mod:`service.usecases.auth`)
    tokens: TokenCheck
    #: the transparency log's checkpoints (only those whose note verifies) and proofs
    log: LogProofs
    #: the server's own stream: its keys' lifetimes (``GET /v1/keys``)
    server_stream: ServerStream
    #: the seats' stream tickets
    tickets: TicketOffice
    organisers: OrganiserService
    batches: BatchService
    #: what listings say of each game (its view's status): ``GET /v1/games`` and the batches' answers
    listing: GameListing
    #: stream places every worker shares: Redis when configured, else the embedded store's (None: this process's)
    places: SharedPlaces | None


def bootstrap(
    settings: Settings | None = None,
    stores: Stores | None = None,
    cache: StateCache | None = None,
    clock: Clock = system_clock,
    signing_keys: ServerKeys | None = None,
) -> Service:
    """Build the service.  Without arguments everything comes from the
    environment (embedded default: SQLite in ``settings.data_path()`` and an
    in-process cache).  Raises :class:`service.adapters.secret_key.MissingSecretKey`
    for PostgreSQL without a secret key, :class:`~service.adapters.signing_keys.SigningKeyError`
    without a signing key (``signing_keys``: the configured ones by default; ``stores``
    given must sign with ``signing_keys.signer``).  ``clock`` is this process's
    clock for bot turns (tests pass the one their store runs on); deadlines
    follow the database's clock, which the store measures."""
    settings = settings or Settings.from_env()
    require_secret_key(settings)
    check_interval(settings.log_interval)
    check_origin(settings.log_origin)
    signing_keys = signing_keys or load_server_keys(settings)
    secrets = ServerSecrets.from_settings(settings)
    hasher = secrets.tokens
    stores = stores or open_stores(settings, signing_keys.signer, secrets)
    stores = pooled(stores)  # under gevent, SQLite's calls in native threads (service/adapters/pooled_store.py)
    cache = cache or open_cache(settings)
    key_set = signing_keys.key_set()
    games = wire_games(stores, cache, hasher, clock, key_set, require_runner=True)
    tickets: StreamTickets = stores.tickets
    places: SharedPlaces | None = stores.counts
    if cache.redis_client is not None:
        from service.adapters.redis_places import RedisPlaces
        from service.adapters.redis_tickets import RedisTickets

        places = RedisPlaces(cache.redis_client)
        tickets = RedisTickets(cache.redis_client)
    tokens = games.commands.tokens
    organisers = OrganiserService(stores.tournaments, stores.deliveries, settings.webhook_private_addresses,
                                  settings.webhooks_per_organiser, secrets.webhooks)
    listing = GameListing(games.queries)
    return Service(
        settings=settings, stores=stores, cache=cache, signing_keys=signing_keys, secrets=secrets, games=games,
        tokens=tokens,
        log=LogProofs(VerifiedLog(stores.log, CheckpointNotes(signing_keys.public_keys())), stores.events),
        server_stream=ServerStream(stores.events, stores.log, key_set),
        tickets=TicketOffice(tickets, tokens), organisers=organisers,
        batches=BatchService(stores.tournaments, stores.deadlines, organisers, games.commands,
                             settings.max_batch_tables, listing),
        listing=listing, places=places,
    )


def webhook_dispatcher(service: Service) -> WebhookDispatcher:
    """A webhook dispatcher on the service's store (not started)."""
    stores = service.stores
    return WebhookDispatcher(stores.deliveries, stores.tournaments, service.log.log, stores.database,
                             service.games.queries, service.secrets.webhooks,
                             DispatchPolicy.from_settings(service.settings))


def timeout_sweeper(service: Service) -> Sweeper:
    """The timeout sweeper (not started; one works at a time across every process)."""
    return Sweeper(service.games.timekeeper, service.settings.timeout_sweep_seconds)


def log_publishing(service: Service) -> LogPublishing:
    """The transparency log's publisher, signing with the server's current key
    (not started); started, it first records the server's keys in its own
    stream (:mod:`service.usecases.server_stream`)."""
    stores, settings, stream = service.stores, service.settings, service.server_stream
    publisher = LogPublisher(stores.log, service.signing_keys.signer, settings.log_origin, stores.deadlines,
                             stream=stream)
    return LogPublishing(publisher, stores.deadlines, settings.log_interval,
                         record_keys=lambda: stream.record(service.signing_keys))
