"""The security section's stacks: which servers each attack runs against.

* ``production``: gunicorn (gevent workers) + PostgreSQL + Redis, the
  servers connecting as the app role of ``cablecar migrate --app-role``.  The
  attacks of ``security.py`` run against a server with the shipped
  defaults.  Two rows need servers set otherwise, started after it:

  - the webhook flood (``webhooks.py``): a server on a fresh database of its
    own that lets webhooks reach loopback (``CABLECAR_WEBHOOK_PRIVATE_ADDRESSES``:
    the receivers are this machine's), its dispatchers polling every 0.25 s;
  - the skewed clocks (``skewed_clock.py``): servers whose clock is 15 s ahead
    and 15 s behind (libfaketime) and one with a correct clock, one worker
    each, on the security server's database and Redis.

  These servers have the creation limits off: the flood of ``security.py``
  used up this address's count, and limits are not what they attack.
* ``embedded``: ``cablecar serve`` (threaded workers on one SQLite file):
  the same attacks but those reaching into PostgreSQL or Redis, and the
  webhook flood on a second embedded server.  No skewed clock: the embedded
  store's clock is its own process's, there is no second one to disagree.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from bench.load.security import Attack, SecurityTable, run_security
from bench.load.skewed_clock import check_skew, early_timeout, faketime_env, late_action
from bench.load.soak import Server
from bench.load.stack import CLI_MODULE, Gunicorn, ServerSpec, Services
from bench.load.webhooks import webhook_flood

Log = Callable[[str], None]
#: the settings of the servers the webhook flood and the skewed clocks run against (see the module docs)
NO_CREATION_LIMITS = (("CABLECAR_CREATE_RATE_LIMIT", "off"), ("CABLECAR_ORGANISER_CREATE_RATE_LIMIT", "off"))
WEBHOOKS_TO_LOOPBACK = (("CABLECAR_WEBHOOK_PRIVATE_ADDRESSES", "true"), ("CABLECAR_WEBHOOK_POLL_SECONDS", "0.25"))
SKEW = 15.0


@contextmanager
def _gunicorn(spec: ServerSpec, log: Path) -> Iterator[Gunicorn]:
    server = Gunicorn(spec, log)
    try:
        server.wait_ready("/v1/health")
        yield server
    finally:
        server.stop()


@contextmanager
def _embedded(data_dir: Path, log: Path, threads: int, env: tuple[tuple[str, str], ...] = ()) -> Iterator[Server]:
    argv = [sys.executable, "-m", CLI_MODULE, "serve", "--host", "127.0.0.1", "--port", "{port}",
            "--workers", "2", "--threads", str(threads), "--data-dir", str(data_dir)]
    server = Server(argv, {"CABLECAR_ACCESS_LOG": "", **dict(env)}, log, 2)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def production_table(work: Path, database_url: str, services: Services, env: tuple[tuple[str, str], ...],
                     threads: int, log: Log) -> SecurityTable:
    """Every attack on the production stack; ``env`` is the servers' store,
    cache and keys.  The servers connect as an app role (``cablecar migrate
    --app-role``), as production does; so does the stray INSERT."""
    started = time.monotonic()
    env = (*env, ("DATABASE_URL", services.app_role_url(database_url)))
    with _gunicorn(ServerSpec("service.serving.wsgi:app", 2, threads, env), work / "gunicorn-security.log") as server:
        attacks = list(run_security(server.url, dict(env)["DATABASE_URL"], services.redis_url, log))
    flood_db = services.fresh_database()
    try:
        flood_env = (*env, ("DATABASE_URL", services.app_role_url(flood_db)), *NO_CREATION_LIMITS,
                     *WEBHOOKS_TO_LOOPBACK)
        with _gunicorn(ServerSpec("service.serving.wsgi:app", 2, threads, flood_env), work / "gunicorn-flood.log") as server:
            attacks.append(webhook_flood(server.url, log))
    finally:
        services.drop_database(flood_db)
    attacks += _skewed(work, env, threads, log)
    return SecurityTable(
        "production", "Attacks against gunicorn (gevent workers, 2) + PostgreSQL (as the app role of `cablecar migrate "
        "--app-role`) + Redis with the shipped defaults (limits on); the webhook flood and the skewed clocks against servers set for them (below)",
        tuple(attacks), time.monotonic() - started, (
            "Webhook flood: a server on a database of its own, with webhooks to loopback allowed (the receivers are "
            "this machine's) and a dispatcher poll of 0.25 s; a try is one delivery of the other organiser during "
            "the flood.",
            f"Skewed clocks: real gunicorn servers whose wall clock is {SKEW:+g} s and {-SKEW:+g} s (libfaketime, "
            "`LD_PRELOAD`; their timeout sweepers run) and one with a correct clock, on the same database and Redis. "
            "Early timeouts: a try is one read of a game through a skewed server before the deadline (by this "
            "machine's clock, PostgreSQL's); refused when no seat was out after it and the timeout then came at the "
            "deadline. Late actions: sent 5, 50 or 200 ms after the deadline the view gave.",
            "The servers of these two rows have the creation limits off (the creation flood used up this address's "
            "count; limits are not what they attack).",
        ))


def _skewed(work: Path, env: tuple[tuple[str, str], ...], threads: int, log: Log) -> list[Attack]:
    base = (*env, *NO_CREATION_LIMITS, ("CABLECAR_WEBHOOKS", "off"))
    specs = {"correct": base, "ahead": (*base, *faketime_env(SKEW)), "behind": (*base, *faketime_env(-SKEW))}
    servers = [Gunicorn(ServerSpec("service.serving.wsgi:app", 1, threads, e), work / f"gunicorn-clock-{name}.log")
               for name, e in specs.items()]
    try:
        for server in servers:
            server.wait_ready("/v1/health")
        urls = {name: server.url for name, server in zip(specs, servers, strict=True)}
        for name, skew in (("correct", 0.0), ("ahead", SKEW), ("behind", -SKEW)):
            log(f"security: the {name} server's clock runs {check_skew(urls[name], skew):+.1f} s off")
        return [early_timeout(urls, log), late_action(urls, log)]
    finally:
        for server in servers:
            server.stop()


def embedded_table(work: Path, threads: int, log: Log) -> SecurityTable:
    """Every attack that applies to the embedded stack."""
    started = time.monotonic()
    with _embedded(work / "embedded-security", work / "serve-security.log", threads) as server:
        attacks = list(run_security(server.url, "", "", log))
    flood_env = (*NO_CREATION_LIMITS, *WEBHOOKS_TO_LOOPBACK)
    with _embedded(work / "embedded-flood", work / "serve-flood.log", threads, flood_env) as server:
        attacks.append(webhook_flood(server.url, log))
    return SecurityTable(
        "embedded", "Attacks against `cablecar serve` (threaded workers, 2, one SQLite file) with the shipped defaults; "
        "the webhook flood against a second embedded server set for it", tuple(attacks), time.monotonic() - started, (
            "Left out: the forged Redis entry and the stray INSERT (no Redis, no PostgreSQL), and the skewed clocks "
            "(the embedded store's clock is its own process's: there is no second clock to disagree with it).",
            "Webhook flood: webhooks to loopback allowed, a dispatcher poll of 0.25 s, creation limits off.",
        ))


def security_tables(work: Path, database_url: str, services: Services, stacks: Sequence[str], threads: int,
                    signing_key_file: str, log: Callable[[str], None]) -> tuple[SecurityTable, ...]:
    """The attacks, against servers of their own with the shipped defaults, on each of ``stacks``."""
    env = (("DATABASE_URL", database_url), ("REDIS_URL", services.redis_url),
           ("CABLECAR_SECRET_KEY", "bench-secret-key-0123456789abcdef0123456789"),
           ("CABLECAR_SIGNING_KEY_FILE", signing_key_file))
    tables = []
    for stack in stacks:
        log(f"security: the {stack} stack")
        if stack == "production":
            tables.append(production_table(work, database_url, services, env, threads, log))
        else:
            tables.append(embedded_table(work, threads, log))
    return tuple(tables)
