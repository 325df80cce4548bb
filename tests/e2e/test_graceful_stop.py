"""A graceful stop is graceful: on SIGTERM a worker (gevent, on PostgreSQL
and on SQLite) ends its event streams at once, answers the request whose
body is still arriving, keeps idle keep-alive connections briefly only, and
exits 0 with no traceback in its log."""

from __future__ import annotations

import json
import signal
import socket
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bots.client import Client, create_game
from tests.e2e.conftest import _signing_key_file, start_gunicorn, stop
from tests.e2e.test_streams_e2e import Watcher

pytestmark = pytest.mark.e2e


def _env(backend: str, request: pytest.FixtureRequest) -> dict[str, str]:
    # Streams, and keep-alive waits, that would outlive the graceful timeout (20 s) unless the stop ends
    # them: a worker waiting for either is killed at that timeout instead of exiting.
    env = {"CABLECAR_SSE_MAX_SECONDS": "300", "GUNICORN_CMD_ARGS": "--keep-alive 30"}
    if backend == "postgres":
        env |= {"DATABASE_URL": request.getfixturevalue("pg_url"),
                "REDIS_URL": request.getfixturevalue("redis_url"), "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef",
                "CABLECAR_SIGNING_KEY_FILE": _signing_key_file()}
    return env


@pytest.mark.parametrize("backend", ["postgres", "sqlite"])
def test_sigterm_answers_the_request_in_flight_ends_streams_and_exits_0(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    srv = start_gunicorn(tmp_path, _env(backend, request), workers=1)
    try:
        game = create_game(Client(srv.url), "ttr-sf", ["ada", "bo"], seed="graceful").game_id
        watchers = [Watcher(srv, game) for _ in range(3)]
        assert [w.resp.status for w in watchers] == [200] * 3
        parts = urlsplit(srv.url)
        body = json.dumps({"type": "ttr-sf", "players": [{"name": "cy"}, {"name": "di"}]}).encode()
        sock = socket.create_connection((parts.hostname, parts.port), timeout=30)
        sock.sendall(b"POST /v1/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body[:10])
        deadline = time.monotonic() + 5
        while not all(w.ids for w in watchers) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the worker has read the headers and waits for the body

        start = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        time.sleep(1.0)  # the stop is under way while the body is still arriving
        sock.sendall(body[10:])
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            assert chunk, f"the connection closed before an answer: {answer!r}"
            answer += chunk
        sock.close()
        assert answer.startswith(b"HTTP/1.1 201"), answer[:200]

        assert srv.proc.wait(timeout=30) == 0
        # gunicorn's graceful timeout is 20 s: a worker waiting on its streams, or on the idle
        # connections of the ended streams, would take that long
        assert time.monotonic() - start < 12
        for w in watchers:
            w.thread.join(timeout=5)
            assert not w.thread.is_alive(), "a stream outlived the stop"
            assert w.error is None, w.error
            w.close()
    finally:
        if srv.proc.poll() is None:
            srv.proc.kill()
    log = srv.log.read_text()
    for bad in ("Traceback", "exited with code", "Error"):
        assert bad not in log, log[-4000:]


def test_a_recycled_worker_ends_its_streams_and_exits_0(tmp_path: Path, pg_url: str, redis_url: str) -> None:
    """``max_requests`` stops a worker without any signal: its streams end all the same."""
    env = {"DATABASE_URL": pg_url, "REDIS_URL": redis_url, "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef",
           "CABLECAR_SIGNING_KEY_FILE": _signing_key_file(),
           "CABLECAR_SSE_MAX_SECONDS": "300", "GUNICORN_CMD_ARGS": "--max-requests 8 --max-requests-jitter 0"}
    srv = start_gunicorn(tmp_path, env, workers=1)
    try:
        game = create_game(Client(srv.url), "ttr-sf", ["ada", "bo"], seed="recycled").game_id
        watcher = Watcher(srv, game)
        assert watcher.resp.status == 200
        for _ in range(8):  # past the worker's max_requests
            with urllib.request.urlopen(srv.url + "/v1/health", timeout=10) as resp:
                assert resp.status == 200
        watcher.thread.join(timeout=8)  # it would hold the worker until the graceful timeout (20 s)
        assert not watcher.thread.is_alive(), "the stream outlived its worker's recycling"
        assert watcher.ids and watcher.error is None, watcher.error
        watcher.close()
    finally:
        stop(srv)
    log = srv.log.read_text()
    assert "Autorestarting worker" in log, log[-4000:]
    for bad in ("Traceback", "exited with code", "graceful timeout", "Error"):
        assert bad not in log, log[-4000:]
