"""The throughput baseline: the least a Python web service writing to
PostgreSQL can do per request.

A plain WSGI callable (no framework) that, for ``POST /insert``, reads the JSON
body, inserts it as one row into ``bench_baseline`` through a
``psycopg_pool.ConnectionPool`` of the same size as the event store's, and
answers ``201 {"id": n}``; ``GET /health`` answers 200.  The harness serves it
with the same gunicorn configuration (``service.serving.gunicorn_conf``, same workers
and threads) and hits it with the same client pool, so the ratio of the
service's action throughput to this one's insert throughput prices everything
the service adds: routing, schemas, auth, rules, cache, hash chain, version
check and idempotency.

    DATABASE_URL=postgresql://... CABLECAR_SECRET_KEY=... gunicorn -c python:service.serving.gunicorn_conf bench.baseline_app:app

``flask_app`` is the same endpoint as a one-route Flask app (the framework
the service is built on), a second reference: what the framework itself costs
per request, before the service does anything.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import Any

from psycopg_pool import ConnectionPool

TABLE_SQL = (
    "CREATE TABLE IF NOT EXISTS bench_baseline ("
    " id bigserial PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
)
INSERT_SQL = "INSERT INTO bench_baseline (body) VALUES (%s::jsonb) RETURNING id"

StartResponse = Callable[..., Any]

_pool: ConnectionPool[Any] | None = None


def pool() -> ConnectionPool[Any]:
    """This worker's connection pool (opened on first use, after the fork)."""
    global _pool
    if _pool is None:
        _pool = ConnectionPool(
            os.environ["DATABASE_URL"], min_size=1, max_size=10, timeout=5.0,
            kwargs={"autocommit": True}, name="bench-baseline",
        )
    return _pool


def _answer(start_response: StartResponse, status: str, body: dict[str, Any]) -> list[bytes]:
    data = json.dumps(body).encode()
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
    return [data]


def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    """The WSGI entry point."""
    method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
    if method == "GET" and path == "/health":
        return _answer(start_response, "200 OK", {"status": "ok"})
    if method != "POST" or path != "/insert":
        return _answer(start_response, "404 Not Found", {"code": "not_found"})
    length = int(environ.get("CONTENT_LENGTH") or 0)
    raw = environ["wsgi.input"].read(length) if length else b""
    try:
        body = json.loads(raw)
    except ValueError:
        return _answer(start_response, "400 Bad Request", {"code": "invalid_request"})
    with pool().connection() as conn:
        row = conn.execute(INSERT_SQL, (json.dumps(body),)).fetchone()
    assert row is not None
    return _answer(start_response, "201 Created", {"id": int(row[0])})


def create_table(database_url: str) -> None:
    """Create the baseline's table (the harness calls this before serving)."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(TABLE_SQL)


def _flask_app() -> Any:
    from flask import Flask, jsonify, request

    flask_app = Flask("bench-baseline")

    @flask_app.get("/health")
    def health() -> Any:
        return {"status": "ok"}

    @flask_app.post("/insert")
    def insert() -> Any:
        body = request.get_json(silent=True)
        if body is None:
            return {"code": "invalid_request"}, 400
        with pool().connection() as conn:
            row = conn.execute(INSERT_SQL, (json.dumps(body),)).fetchone()
        assert row is not None
        return jsonify(id=int(row[0])), 201

    return flask_app


#: The same baseline as a minimal Flask app.
flask_app = _flask_app()
