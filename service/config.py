"""Configuration from environment variables, with an embedded default.

Every setting is declared once, as a field of :class:`Settings`: its
environment variable, default (whose type is the setting's type) and help
text.  The app reads them with :meth:`Settings.from_env`, gunicorn through
``service/serving/gunicorn_conf.py``, and the configuration table of docs/configuration.md is checked
against :data:`SETTINGS`.

With nothing set, the service stores events in a SQLite file under
``CABLECAR_DATA_DIR`` (default: the platform's user data folder, the same
whatever the current directory, so that the server and every CLI command
open one store) and caches rebuilt state in process memory.
``DATABASE_URL`` selects PostgreSQL and ``REDIS_URL`` Redis.

``python -m service.config`` prints the configuration table of docs/configuration.md.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from events.postgres.timeouts import Timeouts

T = TypeVar("T")


def _declare(env: str, default: T, help: str) -> T:
    # A dataclass field whose metadata carries the rest of the declaration;
    # typed as its default so that mypy checks the default against the field.
    found: Any = dataclasses.field(default=default, metadata={"env": env, "help": help})
    return found


@dataclass(frozen=True)
class Setting:
    """One declared setting: the :class:`Settings` field ``name`` read from
    the environment variable ``env``."""

    name: str
    env: str
    default: str | int | float | bool | None
    help: str

    @property
    def kind(self) -> type:
        """The type of its value (``str`` for an optional text)."""
        return str if self.default is None else type(self.default)

    def parse(self, raw: str) -> str | int | float | bool | None:
        """The value of the environment text ``raw``; the default when it is empty."""
        text = raw.strip()
        if not text:
            return self.default
        if self.kind is bool:
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{self.env} must be a boolean (true/false), got {raw!r}")
        if self.kind in (int, float):
            try:
                return int(text) if self.kind is int else float(text)
            except ValueError as e:
                kind = "an integer" if self.kind is int else "a number"
                raise ValueError(f"{self.env} must be {kind}, got {raw!r}") from e
        return raw


@dataclass(frozen=True)
class Settings:
    """Everything the service and its gunicorn configuration read from the environment."""

    database_url: str | None = _declare(
        "DATABASE_URL", None,
        "`postgresql://user:pass@host:5432/db` selects PostgreSQL (several hosts, `postgresql://user:pass@db1,db2,db3/db`: "
        "each connection goes to the one that takes writes, found by libpq, unless the URL sets "
        "`target_session_attrs`, so a failover needs no change here); "
        "unset: the SQLite file `$CABLECAR_DATA_DIR/cablecar.sqlite3`",
    )
    read_database_url: str | None = _declare(
        "CABLECAR_READ_DATABASE_URL", None,
        "with PostgreSQL: a hot standby of `DATABASE_URL` (streaming replication) that serves event pages, "
        "stream catch-up, exports, audits and listings, never staler than the primary (a lagging standby "
        "is waited for up to 1 s, then the primary answers); its pool is as large as the primary's; several hosts: "
        "a standby among them is preferred (`target_session_attrs=prefer-standby` unless the URL sets it); unset: "
        "every read goes to `DATABASE_URL`",
    )
    redis_url: str | None = _declare(
        "REDIS_URL", None,
        "`redis://:password@host:6379/0` selects Redis (shared by every worker and host; `rediss://` for TLS); "
        "unset: an in-process cache",
    )
    data_dir: str = _declare(
        "CABLECAR_DATA_DIR", "",
        "folder of the embedded SQLite store and its `secret.key` (or `--data-dir` of `cablecar serve` and the store commands); unset: the "
        "platform's user data folder, `~/.local/share/cablecar` on Linux (`$XDG_DATA_HOME/cablecar` "
        "when that is set), printed by `cablecar serve`",
    )
    secret_key: str = _declare(
        "CABLECAR_SECRET_KEY", "",
        "signs the states shared through Redis, keys the stored token hashes, seals the stored webhook secrets "
        "and MACs the webhook deliveries (changing it revokes every token and every registered webhook); "
        "required with PostgreSQL, the same on every host, "
        "at least 32 bytes (make one: `python3 -c 'import secrets; print(secrets.token_hex(32))'`); "
        "unset on SQLite: a key generated once into `secret.key` in the data folder",
    )
    signing_key_file: str = _declare(
        "CABLECAR_SIGNING_KEY_FILE", "",
        "the Ed25519 key the server signs every stored event with (a JSON file, readable by the server only); "
        "required with PostgreSQL, the same file on every host (make one: `cablecar keys generate --key-file PATH`); "
        "unset on SQLite: a key generated once into `signing-key.json` in a folder beside the data folder, never "
        "in it (its path with `-keys` appended: `~/.local/share/cablecar-keys` by default; mode 0700, the key 0600); "
        "a key an older version left in the data folder is read there",
    )
    retired_keys_file: str = _declare(
        "CABLECAR_RETIRED_KEYS_FILE", "",
        "the public keys of retired signing keys (`{\"keys\": [...]}` as `GET /v1/keys` lists them), so that "
        "records signed before a rotation still verify; unset: `retired-keys.json` next to the signing key, if any",
    )
    problem_base: str = _declare(
        "CABLECAR_PROBLEM_BASE", "https://cablecar.dev/errors/", "base of the `type` URI of problem+json answers"
    )
    db_pool_size: int = _declare(
        "CABLECAR_DB_POOL_SIZE", 10,
        "with PostgreSQL: connections each worker process keeps at most in its pool (plus one listening "
        "for new events); keep `CABLECAR_WORKERS` × (this + 1), summed over every host, below the "
        "server's `max_connections`",
    )
    db_group_commit: int = _declare(
        "CABLECAR_DB_GROUP_COMMIT", 1,
        "with PostgreSQL: how many statements of appends each worker process may have in flight at once "
        "(group commit: the actions that arrive meanwhile are sent together as the next one, one round trip and "
        "one commit, each with its own verdict; 1 did the most actions per second with the least CPU under "
        "32 clients, `bench/results/THROUGHPUT.md`); `0` sends every append alone; more than "
        "`CABLECAR_DB_POOL_SIZE` counts as that",
    )
    db_connect_timeout: float = _declare(
        "CABLECAR_DB_CONNECT_TIMEOUT", 3.0,
        "with PostgreSQL: seconds one connection attempt may take (per host of a multi-host URL; libpq counts "
        "whole seconds, at least 2); a request waits at most twice this for a pooled connection (a dead first "
        "host, then the next), then answers `503 unavailable`; `/v1/health` says `unavailable` when the primary "
        "does not answer a query within it",
    )
    db_statement_timeout: float = _declare(
        "CABLECAR_DB_STATEMENT_TIMEOUT", 10.0,
        "with PostgreSQL: the server's `statement_timeout` on every connection (seconds); a database that "
        "answers nothing at all (cut off, frozen) has its connection cut by the worker after this plus "
        "`CABLECAR_DB_CONNECT_TIMEOUT`, and the request gets `503 unavailable`",
    )
    db_idle_in_transaction_timeout: float = _declare(
        "CABLECAR_DB_IDLE_IN_TRANSACTION_TIMEOUT", 10.0,
        "with PostgreSQL: the server's `idle_in_transaction_session_timeout` (seconds): a worker that vanished "
        "inside a transaction does not hold its locks longer",
    )
    db_keepalive_seconds: float = _declare(
        "CABLECAR_DB_KEEPALIVE_SECONDS", 10.0,
        "with PostgreSQL: a connection whose server stopped answering is found dead after about this long "
        "(TCP keepalives from half of it, `tcp_user_timeout`), and replaced",
    )
    cache_entries: int = _declare(
        "CABLECAR_CACHE_ENTRIES", 2048, "games the in-process cache keeps (without Redis)"
    )
    local_cache_entries: int = _declare(
        "CABLECAR_LOCAL_CACHE_ENTRIES", 256,
        "with Redis: games each worker also keeps in process in front of Redis (`0`: Redis alone)",
    )
    snapshot_every: int = _declare(
        "CABLECAR_SNAPSHOT_EVERY", 16,
        "with Redis: a worker acting on a game it holds writes its state to Redis at least every this many "
        "events (other workers replay the tail from the store); `1`: every event",
    )
    rate_limit: int = _declare(
        "CABLECAR_RATE_LIMIT", 0,
        "requests one client address may make per window on any route but health, before "
        "`429 rate_limited` (`0`: off)",
    )
    rate_limit_window: int = _declare(
        "CABLECAR_RATE_LIMIT_WINDOW", 60, "the window of `CABLECAR_RATE_LIMIT`, in seconds"
    )
    create_rate_limit: str = _declare(
        "CABLECAR_CREATE_RATE_LIMIT", "30/minute",
        "games one client address may create without an organiser token (`POST /v1/games`; organisers "
        "`POST /v1/organisers` counted apart at the same rate), as `count/unit` (unit: `second`, `minute`, `hour` or `day`); `off`: no limit",
    )
    organiser_create_rate_limit: str = _declare(
        "CABLECAR_ORGANISER_CREATE_RATE_LIMIT", "300/minute",
        "games one organiser may create (`POST /v1/games` with its token, and batches, which count their "
        "tables); organiser tokens used from one address share this limit too; `off`: no limit",
    )
    stream_rate_limit: str = _declare(
        "CABLECAR_STREAM_RATE_LIMIT", "60/minute",
        "event streams one client address may open (`GET /v1/games/{id}/events/stream`); `off`: no limit",
    )
    audit_rate_limit: str = _declare(
        "CABLECAR_AUDIT_RATE_LIMIT", "30/minute",
        "audits one client address may ask for (`GET /v1/games/{id}/audit`, the costliest read); `off`: no limit",
    )
    bot_seat_rate_limit: str = _declare(
        "CABLECAR_BOT_SEAT_RATE_LIMIT", "60/hour",
        "bot seats one client address may ask for in games it creates without an organiser token (a game of "
        "four bots counts four), so that anonymous all-bot games cannot fill the bot runners; `off`: no limit",
    )
    max_batch_tables: int = _declare(
        "CABLECAR_MAX_BATCH_TABLES", 50, "tables (games) one `POST /v1/batches` may create"
    )
    trusted_proxies: int = _declare(
        "CABLECAR_TRUSTED_PROXIES", 0,
        "reverse proxies in front of the server: with N > 0 the client address the limits count is the N-th "
        "from the right of `X-Forwarded-For`; `0`: the connecting address (the header is ignored)",
    )
    create_requires_organiser: bool = _declare(
        "CABLECAR_CREATE_REQUIRES_ORGANISER", False,
        "only organiser tokens may create games (`POST /v1/games` without one: `401 unauthorized`)",
    )
    sse_max_seconds: int = _declare(
        "CABLECAR_SSE_MAX_SECONDS", 300,
        "an event stream closes after this long; clients resume with `Last-Event-ID`",
    )
    sse_heartbeat_seconds: int = _declare(
        "CABLECAR_SSE_HEARTBEAT_SECONDS", 15,
        "seconds between the heartbeats of an event stream (a stream whose client closed the connection "
        "ends within a second, whatever this says)",
    )
    sse_max_streams: int = _declare(
        "CABLECAR_SSE_MAX_STREAMS", 1000,
        "event streams one worker process holds at once; beyond it `503 streams_busy` with `Retry-After` "
        "(a threaded worker holds at most half its threads)",
    )
    sse_max_streams_per_address: int = _declare(
        "CABLECAR_SSE_MAX_STREAMS_PER_ADDRESS", 20,
        "event streams one client address holds at once on the whole server (counted in Redis, or in the embedded "
        "SQLite file; per worker on PostgreSQL without Redis), never more than `CABLECAR_SSE_MAX_STREAMS`; beyond "
        "it `503 streams_busy`",
    )
    open_organisers: bool = _declare(
        "CABLECAR_OPEN_ORGANISERS", True, "whether anyone may create an organiser token over HTTP"
    )
    webhooks: bool = _declare(
        "CABLECAR_WEBHOOKS", True,
        "run a webhook dispatcher in every server worker (`cablecar webhooks run` runs one on its own)",
    )
    webhook_poll_seconds: float = _declare(
        "CABLECAR_WEBHOOK_POLL_SECONDS", 1.0, "how often an idle dispatcher looks for new events and due retries"
    )
    webhook_timeout_seconds: float = _declare(
        "CABLECAR_WEBHOOK_TIMEOUT_SECONDS", 5.0, "the deadline of one delivery attempt: connecting, sending and the whole answer (at most 64 KiB is read)"
    )
    webhooks_per_organiser: int = _declare(
        "CABLECAR_WEBHOOKS_PER_ORGANISER", 10, "active webhooks one organiser may hold; one more is `409 limit_reached`"
    )
    webhook_max_attempts: int = _declare(
        "CABLECAR_WEBHOOK_MAX_ATTEMPTS", 8, "attempts before a delivery is marked `failed`"
    )
    webhook_backoff_seconds: float = _declare(
        "CABLECAR_WEBHOOK_BACKOFF_SECONDS", 10.0, "delay before the first retry; it doubles after each failure"
    )
    webhook_backoff_max_seconds: float = _declare(
        "CABLECAR_WEBHOOK_BACKOFF_MAX_SECONDS", 3600.0, "the longest delay between two retries"
    )
    webhook_private_addresses: bool = _declare(
        "CABLECAR_WEBHOOK_PRIVATE_ADDRESSES", False,
        "allow webhooks to loopback, private-network and other non-public addresses (local development)",
    )
    timeout_sweep_seconds: float = _declare(
        "CABLECAR_TIMEOUT_SWEEP_SECONDS", 0.2,
        "how often the timeout sweeper looks for passed deadlines (0: no sweeper in the server workers;"
        " reads and actions still time seats out)",
    )
    log_interval: float = _declare(
        "CABLECAR_LOG_INTERVAL", 5.0,
        "how often (seconds, more than 0 and at most 10) the transparency log's publisher signs a checkpoint "
        "of the Merkle tree over every event, while new events exist (one publisher works at a time across "
        "every process and host)",
    )
    log_origin: str = _declare(
        "CABLECAR_LOG_ORIGIN", "cablecar.local/log",
        "the origin line of the transparency log's checkpoints and the name of the key signing them (C2SP "
        "tlog-checkpoint): set it to this server's public host and a path, e.g. `games.example.org/log`, the "
        "same on every host",
    )
    bot_runners: int = _declare(
        "CABLECAR_BOT_RUNNERS", 1,
        "bot runner processes `cablecar serve` (and the Docker image's `cablecar supervise`) starts next to the "
        "server, to play the seats games give to server bots, on any store (0: none, e.g. when `cablecar bots "
        "run` runs as a service of its own); while no runner is alive, a game with a bot seat is refused "
        "(`503 bots_unavailable`)",
    )
    bot_slots: int = _declare(
        "CABLECAR_BOT_SLOTS", 0,
        "games each bot runner plays at once (`cablecar bots run --slots`); `0`: sized to the machine, "
        "4 per CPU core, at most 32",
    )
    cors_origins: str = _declare(
        "CABLECAR_CORS_ORIGINS", "",
        "origins whose web pages may call the API (comma-separated, e.g. `https://app.example.org`, or `*`); "
        "unset: none (no CORS headers)",
    )
    bind: str = _declare(
        "CABLECAR_BIND", "127.0.0.1:8000",
        "address gunicorn listens on (`cablecar serve`: `--host`, `--port`); loopback only unless told otherwise "
        "(`0.0.0.0:8000`: every interface, as the Docker image and the compose stack set it behind nginx)",
    )
    request_read_seconds: float = _declare(
        "CABLECAR_REQUEST_READ_SECONDS", 10.0,
        "longest time a worker waits for one request's head and body, from its first byte (a slower "
        "client is cut off: its connection closed, or `400` for a body cut short); on both worker kinds",
    )
    workers: int = _declare(
        "CABLECAR_WORKERS", 2, "gunicorn worker processes; about one per CPU in production"
    )
    threads: int = _declare(
        "CABLECAR_THREADS", 8,
        "threads per gunicorn worker when it is threaded (`gthread`, chosen with `GUNICORN_CMD_ARGS`: "
        "`cablecar serve` and production run gevent workers)",
    )
    worker_connections: int = _declare(
        "CABLECAR_WORKER_CONNECTIONS", 2000,
        "connections one gevent worker serves at once (open streams included); keep it above "
        "`CABLECAR_SSE_MAX_STREAMS`",
    )
    worker_timeout: int = _declare(
        "CABLECAR_WORKER_TIMEOUT", 60, "seconds a silent gunicorn worker lives before it is restarted"
    )
    max_requests: int = _declare(
        "CABLECAR_MAX_REQUESTS", 0, "requests after which a gunicorn worker is replaced (`0`: never)"
    )
    metrics_address: str = _declare(
        "CABLECAR_METRICS_ADDRESS", "",
        "`host:port` where the server answers `GET /metrics` (Prometheus text format: requests, database, "
        "streams, cache, bots, webhooks, sweeper, standby lag; docs/scaling.md), one listener for all its "
        "workers and bot runners, apart from the API's port (e.g. `127.0.0.1:9108`, or the host's private "
        "address for a scraper); unset: no metrics are served",
    )
    log_format: str = _declare(
        "CABLECAR_LOG_FORMAT", "text",
        "`json`: gunicorn's access log and every log line one JSON object each (time, level, logger, message; "
        "a request's `request_id`, the `X-Request-Id` of its answer); `text`: plain lines",
    )
    access_log: str = _declare(
        "CABLECAR_ACCESS_LOG", "-",
        "gunicorn's access log (`-`: standard output); `cablecar serve` logs requests only with `--access-log`",
    )
    log_level: str = _declare("CABLECAR_LOG_LEVEL", "info", "gunicorn's log level")

    def db_timeouts(self) -> Timeouts:
        """The bounds on every wait on PostgreSQL (``CABLECAR_DB_*_TIMEOUT``, ``CABLECAR_DB_KEEPALIVE_SECONDS``)."""
        return Timeouts(self.db_connect_timeout, self.db_statement_timeout,
                        self.db_idle_in_transaction_timeout, self.db_keepalive_seconds)

    def data_path(self) -> Path:
        """The folder of the embedded store: ``data_dir``, else the platform's
        user data folder (absolute either way, so the message naming it is exact)."""
        if self.data_dir.strip():
            return Path(self.data_dir).expanduser().absolute()
        return platformdirs.user_data_path("cablecar", appauthor=False)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read settings from ``env`` (default: ``os.environ``)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {s.name: s.parse(env.get(s.env, "")) for s in SETTINGS}
        return cls(**values)


#: prometheus_client's multiprocess folder: its own variable, which it reads once, when first imported
METRICS_FOLDER_ENV = "PROMETHEUS_MULTIPROC_DIR"


def metrics_folder() -> str | None:
    """The multiprocess metrics folder this process (and its children) count into, if any."""
    return os.environ.get(METRICS_FOLDER_ENV) or None


def use_metrics_folder(folder: str) -> None:
    """Count into ``folder`` from now on, here and in the processes started from here
    (:mod:`service.serving.metrics_listener`: before prometheus_client is imported)."""
    os.environ[METRICS_FOLDER_ENV] = folder


#: Every setting, in the order of :class:`Settings` (and of docs/configuration.md's table).
SETTINGS: tuple[Setting, ...] = tuple(
    Setting(f.name, f.metadata["env"], f.default, f.metadata["help"])  # type: ignore[arg-type]
    for f in dataclasses.fields(Settings)
)


def declared(name: str) -> Setting:
    """The declaration of the :class:`Settings` field ``name``."""
    for setting in SETTINGS:
        if setting.name == name:
            return setting
    raise KeyError(name)
