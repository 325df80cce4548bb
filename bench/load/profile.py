"""Where the time of one action goes: the service in this process, one thread.

The app is built by ``service.api.app.create_app`` on the run's PostgreSQL and
Redis and driven through Flask's test client with scripted games (no HTTP,
no gunicorn, no concurrency), so the figures are the service's own cost per
``POST /v1/games/{id}/actions``:

* milliseconds per action (wall and CPU of this process), without a profiler;
* database statements per action (by kind) and transactions per action (the
  database's own ``xact_commit`` counter), Redis commands per action;
* shares of the CPU time under ``cProfile`` (timer: ``time.process_time``, so
  waiting for the database is not counted), grouped by package, builtins and
  standard-library code counted for their callers.
"""

from __future__ import annotations

import cProfile
import pstats
import re
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bench.load.scripts import GameScript

BUCKETS: tuple[tuple[str, str], ...] = (
    ("/psycopg", "PostgreSQL driver (psycopg, pool)"),
    ("/redis/", "Redis client"),
    ("/marshmallow/", "marshmallow (schemas)"),
    ("/flask/", "Flask / Werkzeug"),
    ("/werkzeug/", "Flask / Werkzeug"),
    ("/domain/", "rules (domain/)"),
    ("/events/", "event store code (events/)"),
    ("/service/", "service code (service/)"),
    ("/bench/", "the profile's own driver"),
)
OTHER = "unattributed (no caller in the groups above)"

_KINDS = (
    (re.compile(r"FROM games\b"), "SELECT the game row"),
    (re.compile(r"idempotency_keys"), "SELECT the idempotency key"),
    (re.compile(r"cablecar_append"), "append function"),
    (re.compile(r"FROM events\b"), "SELECT events"),
)


@dataclass(frozen=True)
class ActionProfile:
    """Cost of one action inside the service."""

    actions: int
    ms_per_action: float
    cpu_ms_per_action: float
    statements: tuple[tuple[str, float], ...]
    transactions_per_action: float
    redis_commands: tuple[tuple[str, float], ...]
    shares: tuple[tuple[str, float], ...]
    #: the 15 functions with the most CPU self time: (function, ms per action, share)
    top: tuple[tuple[str, float, float], ...] = ()


def _kind(query: Any) -> str:
    text = str(query)
    for pattern, name in _KINDS:
        if pattern.search(text):
            return name
    return text.split()[0].upper() if text.split() else "?"


@contextmanager
def _counting(statements: Counter[str], redis_commands: Counter[str]) -> Iterator[None]:
    import psycopg
    import redis

    originals = (psycopg.Cursor.execute, psycopg.Connection.execute, redis.Redis.execute_command)

    def cursor_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        statements[_kind(query)] += 1
        return originals[0](self, query, *args, **kwargs)

    def redis_execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        redis_commands[str(args[0]).upper() if args else "?"] += 1
        return originals[2](self, *args, **kwargs)

    psycopg.Cursor.execute = cursor_execute  # type: ignore[method-assign]
    redis.Redis.execute_command = redis_execute  # type: ignore[method-assign]
    try:
        yield
    finally:
        psycopg.Cursor.execute = originals[0]  # type: ignore[method-assign]
        redis.Redis.execute_command = originals[2]  # type: ignore[method-assign]


def _commits(database_url: str) -> int:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").fetchone()
    return int(row[0]) if row else 0


def profile_actions(database_url: str, redis_url: str, scripts: Sequence[GameScript],
                    signing_key_file: str = "") -> ActionProfile:
    """Play ``scripts`` through the app in this process (see the module docs)."""
    from service.api.app import create_app
    from service.config import Settings

    app = create_app(Settings(database_url=database_url, redis_url=redis_url, secret_key="bench-profile-secret-key-0123456789abcdef0123",
                                  signing_key_file=signing_key_file))
    client = app.test_client()

    def play(games: Sequence[GameScript]) -> int:
        done = 0
        for script in games:
            created = client.post("/v1/games", json=script.create_body())
            body = created.get_json()
            tokens = [s["token"] for s in body["seats"]]
            for i, action in enumerate(script.actions):
                answer = client.post(
                    f"/v1/games/{body['id']}/actions", json={**action.body, "expected_version": script.version_after(i)},
                    headers={"Authorization": f"Bearer {tokens[action.seat]}", "Idempotency-Key": f"p{i}"},
                )
                if answer.status_code != 201:
                    raise RuntimeError(f"profile: action {i} answered {answer.status_code} {answer.get_json()}")
                done += 1
        return done

    def timed(games: Sequence[GameScript]) -> tuple[int, float, float]:
        started, cpu = time.perf_counter(), time.process_time()
        done = play(games)
        return done, time.perf_counter() - started, time.process_time() - cpu

    play(scripts[:1])  # warm up
    part = max(1, (len(scripts) - 1) // 3)
    first, second, third = scripts[1:1 + part], scripts[1 + part:1 + 2 * part], scripts[1 + 2 * part:]
    actions, seconds, cpu_seconds = timed(first)
    statements: Counter[str] = Counter()
    redis_commands: Counter[str] = Counter()
    time.sleep(2.0)
    commits_before = _commits(database_url)
    with _counting(statements, redis_commands):
        counted = play(second)
    time.sleep(2.0)  # backends publish their statistics when idle for a second
    commits = _commits(database_url) - commits_before - 1  # the probe's own SELECT
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    profiled = play(third)
    profiler.disable()
    return ActionProfile(
        actions=actions,
        ms_per_action=seconds / actions * 1000,
        cpu_ms_per_action=cpu_seconds / actions * 1000,
        statements=_per(statements, counted),
        transactions_per_action=commits / counted,
        redis_commands=_per(redis_commands, counted),
        shares=_shares(profiler),
        top=_top(profiler, profiled),
    )


def _top(profiler: cProfile.Profile, actions: int, count: int = 15) -> tuple[tuple[str, float, float], ...]:
    """The ``count`` functions with the most CPU self time (``tottime``), per action."""
    stats: dict[Func, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in stats.values()) or 1.0
    rows = sorted(stats.items(), key=lambda item: -item[1][2])[:count]
    out = []
    for (filename, line, name), row in rows:
        where = "/".join(filename.rsplit("/", 2)[-2:]) if "/" in filename else filename
        out.append((f"{name} ({where}:{line})", row[2] * 1000 / actions, row[2] / total))
    return tuple(out)


def _per(counter: Counter[str], actions: int) -> tuple[tuple[str, float], ...]:
    return tuple((name, n / actions) for name, n in counter.most_common())


Func = tuple[str, int, str]


def _bucket(filename: str) -> str | None:
    return next((name for needle, name in BUCKETS if needle in filename), None)


def _shares(profiler: cProfile.Profile) -> tuple[tuple[str, float], ...]:
    """CPU own time by group; the time of builtins and standard-library code
    goes to the groups of their callers, in proportion to what each caller
    made them spend (so ``copy.deepcopy`` called by marshmallow counts as
    marshmallow)."""
    stats: dict[Func, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    memo: dict[Func, dict[str, float]] = {}

    def owners(func: Func, depth: int) -> dict[str, float]:
        if func in memo:
            return memo[func]
        named = _bucket(func[0])
        if named is not None:
            return {named: 1.0}
        callers = stats.get(func, (0, 0, 0.0, 0.0, {}))[4]
        weights = {c: float(v[2]) for c, v in callers.items() if isinstance(v, tuple)}
        total = sum(weights.values())
        if depth > 40 or total <= 0:
            return {OTHER: 1.0}
        memo[func] = {OTHER: 1.0}  # a cycle ends here
        result: dict[str, float] = {}
        for caller, weight in weights.items():
            for name, share in owners(caller, depth + 1).items():
                result[name] = result.get(name, 0.0) + share * weight / total
        memo[func] = result
        return result

    spent: Counter[str] = Counter()
    for func, row in stats.items():
        for name, share in owners(func, 0).items():
            spent[name] += row[2] * share  # tottime
    total = sum(spent.values()) or 1.0
    return tuple((name, t / total) for name, t in spent.most_common())
