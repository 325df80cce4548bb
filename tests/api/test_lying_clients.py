"""Lying and slow clients cannot hold the server (issue 36): on both worker
kinds a request's head and body (chunked included) must arrive within
``CABLECAR_REQUEST_READ_SECONDS`` of its first byte, and one address holds at
most ``PER_ADDRESS`` unfinished requests per worker (its further connections
are closed at their first byte), so ``/v1/health`` from another address keeps
answering while 32 connections from one address announce a body they never
send, or trickle a head or a body."""

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

from service.config import SETTINGS
from service.serving.arrival import PER_ADDRESS, AddressGate, chunked_complete, request_complete
from service.serving.workers import GEVENT, THREADED

ROOT = Path(__file__).resolve().parents[2]
ATTACKER = "127.0.0.2"  # loopback too (all of 127/8), but not the address health is asked from
PLACES = 16  # connections one worker serves at once: fewer than the attack's 32

CHUNKED_HEAD = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n")
ATTACKS = {
    "lying-chunked": (CHUNKED_HEAD + b"7fffffff\r\n{\"", False),  # a huge chunk announced, 2 bytes, silence
    "lying-length": (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 999999999\r\n\r\n{\"", False),
    "slow-header": (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ", True),
    "slow-body": (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 2000\r\n\r\n{", True),
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module", params=[THREADED, GEVENT], ids=["gthread", "gevent"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """gunicorn as ``cablecar serve`` and production start it (the gevent
    worker), or with the threaded worker chosen by hand: one worker, the
    default read limit (10 s) and threads (8), :data:`PLACES` connections."""
    tmp = tmp_path_factory.mktemp("lying")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {s.env for s in SETTINGS}}
    env.update(PYTHONPATH=str(ROOT), CABLECAR_DATA_DIR=str(tmp), CABLECAR_BIND=f"127.0.0.1:{port}",
               CABLECAR_WORKERS="1", CABLECAR_WORKER_CONNECTIONS=str(PLACES),
               CABLECAR_WEBHOOKS="false", CABLECAR_RATE_LIMIT="0")
    kind = ["-k", request.param]
    log = (tmp / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", *kind,
         "service.serving.wsgi:app"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while _health_seconds(port, 1) is None:
            assert proc.poll() is None and time.monotonic() < deadline, (tmp / "server.log").read_text()
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()


def _health_seconds(port: int, timeout: float) -> float | None:
    """How long ``GET /v1/health`` took to answer 200, or ``None``."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=timeout) as resp:
            return time.monotonic() - started if resp.status == 200 else None
    except OSError:
        return None


def _attack(port: int, first: bytes, trickle: bool, stop: threading.Event) -> None:
    """From :data:`ATTACKER`: send ``first``, then a byte every 0.2 s
    (``trickle``) or nothing; connect again whenever the server lets go."""
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(ATTACKER, 0)) as conn:
                conn.sendall(first)
                while not stop.wait(0.2):
                    if trickle:
                        conn.sendall(b"a")
                    elif conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                        break  # closed by the server
        except BlockingIOError:
            continue
        except OSError:
            stop.wait(0.05)


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_health_answers_while_one_address_lies_or_trickles(server: int, attack: str) -> None:
    first, trickle = ATTACKS[attack]
    stop = threading.Event()
    attackers = [threading.Thread(target=_attack, args=(server, first, trickle, stop), daemon=True)
                 for _ in range(32)]
    for t in attackers:
        t.start()
    try:
        time.sleep(1.0)  # every place the attack can take is taken
        took = [_health_seconds(server, 3) for _ in range(5)]
        assert all(t is not None and t < 3 for t in took), f"health with 32 {attack} connections: {took}"
    finally:
        stop.set()
        for t in attackers:
            t.join(10)
    assert _health_seconds(server, 12) is not None


def _post(port: int, body: bytes, chunked: bool) -> tuple[int, bytes]:
    """POST a game, its body in two pieces 0.3 s apart (chunked, or by
    ``Content-Length``); the answer's status and body."""
    head = b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
    half = len(body) // 2
    if chunked:
        pieces = [head + b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n%s\r\n" % (half, body[:half]),
                  b"%x\r\n%s\r\n0\r\n\r\n" % (len(body) - half, body[half:])]
    else:
        pieces = [head + b"Content-Length: %d\r\n\r\n" % len(body) + body[:half], body[half:]]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(pieces[0])
        time.sleep(0.3)
        conn.sendall(pieces[1])
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1])
    return status, answer.partition(b"\r\n\r\n")[2]


def test_a_chunked_upload_that_arrives_in_time_gets_its_normal_answer(server: int) -> None:
    body = b'{"type": "ttr-sf", "players": [{"name": "ada"}, {"name": "bo"}]}'
    by_length = _post(server, body, chunked=False)
    by_chunks = _post(server, body, chunked=True)
    assert by_chunks[0] == by_length[0] == 201, (by_length, by_chunks)


def test_a_chunked_body_is_whole_once_its_last_chunk_and_trailers_are_in() -> None:
    assert not request_complete(CHUNKED_HEAD)
    assert not request_complete(CHUNKED_HEAD + b"7fffffff\r\n{\"")  # a huge chunk announced: wait for it
    assert not request_complete(CHUNKED_HEAD + b"2\r\n{}\r\n")  # no last chunk yet
    assert request_complete(CHUNKED_HEAD + b"2\r\n{}\r\n0\r\n\r\n")
    assert not chunked_complete(b"2;ext=1\r\n{}\r\n0\r\nX-Trailer: 1\r\n")
    assert chunked_complete(b"2;ext=1\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n")
    assert chunked_complete(b"zz\r\n")  # malformed: the app refuses it at once
    # a large Content-Length is waited for too, up to what the buffer holds
    assert not request_complete(b"POST / HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n{")


def test_one_address_holds_a_bounded_number_of_unfinished_requests() -> None:
    gate = AddressGate()
    assert all(gate.enter(("10.0.0.1", port)) for port in range(PER_ADDRESS))
    assert not gate.enter(("10.0.0.1", 9999)) and gate.enter(("10.0.0.2", 1))
    gate.leave(("10.0.0.1", 1))
    assert gate.enter(("10.0.0.1", 9999)) and gate.held(("10.0.0.1", 0)) == PER_ADDRESS
