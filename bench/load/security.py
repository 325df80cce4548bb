"""Attacks against the shipped configuration (default limits, PostgreSQL,
Redis, gevent workers), each tried many times: how often it was refused as
it should be, and how often the server answered 5xx (the goal: never).

A server of its own is started for this section, without the harness's
switched-off limits, so the defaults are what is attacked.  On the embedded
stack (``database_url`` and ``redis_url`` empty) the rows that reach into
PostgreSQL or Redis are left out.  The stacks, and the rows that need servers
set otherwise (webhook flood, skewed clocks), are ``security_run.py``'s.
"""

from __future__ import annotations

import json
import os
import pickle
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg
import redis

from bench.load.attacks import Attack, http_request, json_request
from bench.load.capabilities import creation_key_takeover, rotated_token_stream, slow_bodies

__all__ = ["Attack", "SecurityTable", "render_security", "run_security"]

MARKER = Path("/tmp/cablecar-bench-pwned")


def _tally(name: str, expected: str, statuses: list[int], ok: Callable[[int], bool]) -> Attack:
    return Attack(name, expected, len(statuses), sum(1 for s in statuses if ok(s)),
                  sum(1 for s in statuses if s >= 500 and not ok(s)))


@dataclass(frozen=True)
class SecurityTable:
    """The attacks run against one stack."""

    stack: str
    #: what was attacked, for the line under the table's heading
    about: str
    attacks: tuple[Attack, ...]
    seconds: float
    notes: tuple[str, ...] = ()


def run_security(base: str, database_url: str, redis_url: str, log: Callable[[str], None]) -> tuple[Attack, ...]:
    """Every attack against the server at ``base`` (PostgreSQL and Redis
    rows only when their URLs are given)."""
    attacks: list[Attack] = []
    players = [{"name": "Ada"}, {"name": "Bo"}]
    # the game the later attacks aim at, created before the flood uses up this address's creations
    body, headers = json_request({"type": "ttr-sf", "players": players})
    status, raw_game = http_request(base, "POST", "/v1/games", body, headers)
    game = json.loads(raw_game) if status == 201 else None
    log("security: creation keys and rotated tokens")
    attacks += [creation_key_takeover(base), rotated_token_stream(base)]
    log("security: creation flood with random bearer values")
    statuses = []
    for i in range(120):
        body, headers = json_request({"type": "ttr-sf", "players": players})
        statuses.append(http_request(base, "POST", "/v1/games", body,
                                 {**headers, "Authorization": f"Bearer x{secrets.token_hex(8)}{i}"})[0])
    created = sum(1 for s in statuses if s == 201)
    attacks.append(_tally("create games with a fresh random bearer value each time", "429 past the limit",
                          statuses[created:], lambda s: s == 429))
    log("security: bodies and strings")
    plain = [http_request(base, "POST", "/v1/games", json.dumps({"type": "ttr-sf", "players": players}).encode(),
                      {"Content-Type": "text/plain"})[0] for _ in range(20)]
    attacks.append(_tally("JSON sent as text/plain (no CORS preflight)", "415", plain, lambda s: s == 415))
    hostile = ['"\\ud800"', '"a\\u0000b"', '"\\u202eAda"', '"   "', '"Ada\\nBo"']
    names = []
    for text in hostile:
        raw = ('{"type": "ttr-sf", "players": [{"name": ' + text + '}, {"name": "Bo"}]}').encode()
        names += [http_request(base, "POST", "/v1/games", raw, {"Content-Type": "application/json"})[0] for _ in range(4)]
    attacks.append(_tally("surrogate, NUL, bidi, blank and newline player names", "400", names, lambda s: s == 400))
    paths = ["/v1/games/a%00", "/v1/games?type=%00", "/v1/games?batch=a%00b", "/v1/games/%0Aforged",
             "/v1/games/x/events?after=%00"]
    nul = [http_request(base, "GET", p)[0] for p in paths for _ in range(4)]
    attacks.append(_tally("NUL and newlines in paths and queries", "400 or 404", nul, lambda s: s in (400, 404)))
    deep = b'{"type": "draw_card", "source": ' + b"[" * 30000 + b"]" * 30000 + b"}"
    nested = []
    if game is not None:
        token = {"Authorization": f"Bearer {game['seats'][0]['token']}", "Content-Type": "application/json"}
        nested = [http_request(base, "POST", f"/v1/games/{game['id']}/actions", deep, token)[0] for _ in range(10)]
    attacks.append(_tally("an action nested 30,000 deep", "400", nested, lambda s: s == 400))
    log("security: cache and database")
    forged = []
    if game is not None and redis_url:
        r = redis.Redis.from_url(redis_url)

        class Boom:
            def __reduce__(self) -> tuple[object, tuple[str]]:
                return (os.system, (f"touch {MARKER}",))

        MARKER.unlink(missing_ok=True)
        for _ in range(10):
            r.set(f"cablecar:state:{game['id']}", b"%08d" % 99 + b"\x00\x01" + b"\x00" * 32 + pickle.dumps(Boom()))
            status, raw = http_request(base, "GET", f"/v1/games/{game['id']}")
            forged.append(status if status >= 500 or MARKER.exists() or json.loads(raw).get("id") != game["id"]
                          else 1)
        r.close()
    if redis_url:
        attacks.append(_tally("a forged Redis entry holding a pickle that runs a command",
                              "ignored (real view, no code run)", forged, lambda s: s == 1))
    inserts = []
    if game is not None and database_url:
        for i in range(10):
            try:
                with psycopg.connect(database_url, autocommit=True) as conn:
                    conn.execute(
                        "INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at,"
                        " prev_hash, hash) VALUES (%s, %s, 'card_drawn', 1, '{}', 'now', %s, %s)",
                        (game["id"], 1000 + i, "0" * 64, "f" * 64))
                inserts.append(0)
            except psycopg.errors.InsufficientPrivilege:
                inserts.append(1)
            except psycopg.Error:
                inserts.append(0)
    if database_url:
        attacks.append(_tally("a stray INSERT into events as the server's role", "refused by the database (no privilege)",
                              inserts, lambda s: s == 1))
    log("security: stream caps")
    streams = []
    if game is not None:
        host, port = base.split("//", 1)[1].rsplit(":", 1)
        held = []
        for _ in range(60):
            sock = socket.create_connection((host, int(port)), timeout=10)
            sock.sendall(f"GET /v1/games/{game['id']}/events/stream HTTP/1.0\r\nHost: x\r\n\r\n".encode())
            head = sock.recv(64)
            streams.append(int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 599)
            held.append(sock)
        time.sleep(0.2)
        for sock in held:
            sock.close()
    # the per-address cap (20) counts across the server's workers (Redis, or the embedded store's file):
    # at most 20 admitted, fewer where the server's whole cap is lower
    attacks.append(_tally("60 streams held open from one address (20 per address on the whole server)",
                          "at least 40 refused with 503 or 429", streams, lambda s: s in (503, 429)))
    log("security: webhooks to tunnelled addresses")
    hooks = []
    status, raw = http_request(base, "POST", "/v1/organisers", *json_request({"name": "Mallory"}))
    if status == 201:
        org = {"Authorization": f"Bearer {json.loads(raw)['token']}", "Content-Type": "application/json"}
        for url in ("http://[64:ff9b::a00:1]/h", "http://[2002:a00:1::1]/h", "http://[::ffff:10.0.0.1]/h",
                    "http://127.0.0.1/h", "http://localhost/h"):
            hooks += [http_request(base, "POST", "/v1/webhooks", json.dumps({"url": url}).encode(), org)[0]
                      for _ in range(2)]
    attacks.append(_tally("webhooks to NAT64, 6to4, mapped, loopback addresses", "400", hooks, lambda s: s == 400))
    attacks.append(slow_bodies(base, log))
    return tuple(attacks)


def render_security(tables: tuple[SecurityTable, ...]) -> list[str]:
    """The report's section: one table per stack."""
    lines = ["## Security", ""]
    for table in tables:
        lines += [f"### {table.stack.capitalize()} stack", "", f"{table.about} ({table.seconds:.0f} s)", "",
                  "| attack | expected | tried | refused as expected | 5xx |", "|---|---|---|---|---|"]
        lines += [f"| {a.name} | {a.expected} | {a.tried} | {a.refused} | {a.server_errors} |" for a in table.attacks]
        lines += ["", *[f"- {note}" for note in table.notes], *([""] if table.notes else [])]
    total = sum(a.server_errors for t in tables for a in t.attacks)
    lines += [f"5xx answers in all: **{total}**.", ""]
    return lines
