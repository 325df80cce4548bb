"""Slow clients cannot hold the server (issue 25): on both worker kinds a
request's head and body must arrive within ``CABLECAR_REQUEST_READ_SECONDS``
of its first byte, so connections that trickle a byte now and then are cut
off and ``/v1/health`` answers; the embedded default listens on loopback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.config import SETTINGS, Settings
from service.serving.workers import GEVENT, THREADED, DeadlineSocket

ROOT = Path(__file__).resolve().parents[2]


def test_the_embedded_default_listens_on_loopback_only() -> None:
    assert Settings().bind.startswith("127.0.0.1:")
    from cablecar.cli import build_parser

    assert build_parser().parse_args(["serve"]).host == "127.0.0.1"


def test_a_deadline_socket_reads_as_closed_once_the_request_is_late() -> None:
    left, right = socket.socketpair()
    with left, right:
        reader = DeadlineSocket(left, 0.5)
        right.sendall(b"G")
        assert reader.recv(10) == b"G"  # the first byte arms the deadline
        started = time.monotonic()
        assert reader.recv(10) == b""  # nothing more within it: read as closed
        assert 0.3 < time.monotonic() - started < 2
        reader.disarm()  # the next request's first byte starts a new deadline
        right.sendall(b"P")
        assert reader.recv(10) == b"P"
        right.sendall(b"Q")
        assert reader.recv(10) == b"Q" and left.gettimeout() is None  # writes stay blocking


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(params=[THREADED, GEVENT], ids=["gthread", "gevent"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[int, int]]:
    """gunicorn with this project's configuration and worker class: one worker,
    2 threads (gthread) or 12 connections (gevent), a 1 s read limit."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {s.env for s in SETTINGS}}
    env.update(PYTHONPATH=str(ROOT), CABLECAR_DATA_DIR=str(tmp_path), CABLECAR_BIND=f"127.0.0.1:{port}",
               CABLECAR_WORKERS="1", CABLECAR_THREADS="2", CABLECAR_WORKER_CONNECTIONS="12",
               CABLECAR_REQUEST_READ_SECONDS="1", CABLECAR_WEBHOOKS="false", CABLECAR_RATE_LIMIT="0")
    places = 2 if request.param == THREADED else 12
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "-k", request.param,
         "service.serving.wsgi:app"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not _healthy(port, 1):
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "server.log").read_text()
            time.sleep(0.2)
        yield port, places
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()


def _healthy(port: int, timeout: float) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=timeout) as resp:
            return resp.status == 200
    except OSError:
        return False


def _trickle(port: int, first: bytes, stop: threading.Event, cut: list[float]) -> None:
    """Send ``first`` then one byte every 0.2 s until the server closes."""
    with socket.create_connection(("127.0.0.1", port)) as conn:
        started = time.monotonic()
        conn.sendall(first)
        while not stop.wait(0.2):
            try:
                conn.sendall(b"a")
            except OSError:
                cut.append(time.monotonic() - started)
                return
        return


@pytest.mark.parametrize("kind", ["header", "body"])
def test_slow_clients_are_cut_off_and_health_answers(server: tuple[int, int], kind: str) -> None:
    port, places = server
    first = (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " if kind == "header" else
             b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 2000\r\n\r\n{")
    stop = threading.Event()
    cut: list[float] = []
    slow = [threading.Thread(target=_trickle, args=(port, first, stop, cut), daemon=True)
            for _ in range(places + 2)]
    for t in slow:
        t.start()
    try:
        time.sleep(0.5)  # every place of the worker is taken by a trickling client now
        started = time.monotonic()
        answered = False
        while not answered and time.monotonic() - started < 8:
            answered = _healthy(port, 3)
        assert answered, f"health did not answer with {len(slow)} slow {kind} connections"
        assert time.monotonic() - started < 6
        deadline = time.monotonic() + 10
        while len(cut) < len(slow) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(cut) == len(slow), f"only {len(cut)} of {len(slow)} slow connections were cut off"
    finally:
        stop.set()


def test_a_request_is_whole_once_its_head_and_announced_body_are_in() -> None:
    from service.serving.workers import BUFFER_LIMIT, request_complete

    head = b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"
    assert not request_complete(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n")
    assert request_complete(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
    assert not request_complete(head + b"{}") and request_complete(head + b'{"a":')
    # what waits for an answer, has a framing the app refuses or is too large goes to a thread as it is
    assert request_complete(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 9\r\n\r\n")
    assert request_complete(b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n")
    assert request_complete(b"GET / HTTP/1.1\r\nX: " + b"a" * BUFFER_LIMIT)
