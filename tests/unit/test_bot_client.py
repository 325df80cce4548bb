"""The reference bot's HTTP client survives an answer cut off mid-body (a
worker killed while answering): it retries with the same Idempotency-Key; it
creates games with a random key and keeps retrying 503s and connection errors,
with growing jittered pauses, for more than a minute."""

from __future__ import annotations

import json
import random
import socket
import threading
import urllib.error
import uuid
from collections.abc import Callable, Iterator, Mapping

import pytest

from bots.client import FIRST_PAUSE, LONGEST_PAUSE, PATIENCE, ApiProblem, Client, create_game
from tests.raw_server import raw_server


@pytest.fixture
def flaky_server() -> Iterator[tuple[str, list[dict[str, str]]]]:
    """A server whose first answer promises 100 bytes and sends 10, then
    closes; later answers are whole.  Records each request's headers."""
    seen: list[dict[str, str]] = []

    def handle(conn: socket.socket, stop: threading.Event) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            lines = head.decode().split("\r\n")
            headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
            while len(rest) < int(headers.get("Content-Length", "0")):
                rest += conn.recv(4096)
            seen.append(headers)
            body = json.dumps({"ok": True, "n": len(seen)}).encode()
            if len(seen) == 1:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 100\r\n\r\n" + body[:10])
            else:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                             + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)

    with raw_server(handle) as base:
        yield base, seen


def test_a_cut_off_answer_is_retried_with_the_same_idempotency_key(
    flaky_server: tuple[str, list[dict[str, str]]],
) -> None:
    url, seen = flaky_server
    client = Client(url, timeout=5, retries=2)
    answer = client.request("POST", "/v1/games/g/actions", {"type": "roll"}, headers={"Idempotency-Key": "k-1"})
    assert answer == {"ok": True, "n": 2}
    assert [h.get("Idempotency-Key") for h in seen] == ["k-1", "k-1"]


class VirtualTime:
    """A clock that a pause moves forward at once: a minute of back-off in no time."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds


def _unavailable_then(answers_503: int, cut: int, body: Mapping[str, object]) -> Callable[..., None]:
    """A server handler: ``answers_503`` answers 503, then ``cut`` connections closed
    without an answer, then ``201 body``; each request's headers are recorded in ``handle.seen``."""
    seen: list[dict[str, str]] = []

    def handle(conn: socket.socket, stop: threading.Event) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            lines = head.decode().split("\r\n")
            headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
            while len(rest) < int(headers.get("Content-Length", "0")):
                rest += conn.recv(4096)
            seen.append(headers)
            if len(seen) <= answers_503:
                payload = json.dumps({"code": "unavailable", "detail": "down"}).encode()
                status = b"503 Service Unavailable"
            elif len(seen) <= answers_503 + cut:
                return  # closed without an answer, as a worker killed mid-request
            else:
                payload, status = json.dumps(dict(body)).encode(), b"201 Created"
            conn.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\nContent-Length: "
                         + str(len(payload)).encode() + b"\r\nConnection: close\r\n\r\n" + payload)

    handle.seen = seen  # type: ignore[attr-defined]
    return handle


def test_a_creation_survives_an_outage_with_one_random_key() -> None:
    created = {"id": "g-1", "seats": [{"token": "st_a"}, {"token": "st_b"}]}
    handle = _unavailable_then(3, 2, created)
    with raw_server(handle) as url:
        run = create_game(Client(url, timeout=5), "ttr-sf", ["ada", "bo"])
    assert (run.game_id, run.tokens) == ("g-1", ["st_a", "st_b"])
    keys = [h.get("Idempotency-Key") for h in handle.seen]  # type: ignore[attr-defined]
    assert len(keys) == 6 and len(set(keys)) == 1, keys
    assert str(uuid.UUID(keys[0])) == keys[0]  # a random UUID: 36 characters, a secret
    with raw_server(_unavailable_then(0, 0, created)) as url:
        another = Client(url, timeout=5).request("POST", "/v1/games", {})
    assert another == created


def test_503s_are_retried_for_more_than_a_minute_with_growing_jittered_pauses() -> None:
    time_ = VirtualTime()
    handle = _unavailable_then(10_000, 0, {})
    with raw_server(handle) as url:
        client = Client(url, timeout=5, sleep=time_.sleep, clock=time_.clock, rng=random.Random(7))
        with pytest.raises(ApiProblem) as refused:
            create_game(client, "ttr-sf", ["ada", "bo"])
    assert refused.value.status == 503
    assert 60 <= time_.now <= PATIENCE
    assert len(handle.seen) == len(time_.pauses) + 1  # type: ignore[attr-defined]
    assert all(FIRST_PAUSE / 2 <= p <= LONGEST_PAUSE for p in time_.pauses)
    assert time_.pauses[0] < time_.pauses[4] < max(time_.pauses)  # growing
    assert len(set(time_.pauses)) == len(time_.pauses)  # jittered: no two bots in step


def test_connection_errors_are_retried_for_more_than_a_minute() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once left: connections are refused
    time_ = VirtualTime()
    client = Client(f"http://127.0.0.1:{port}", timeout=5, sleep=time_.sleep, clock=time_.clock)
    with pytest.raises(urllib.error.URLError):
        client.request("GET", "/v1/health")
    assert 60 <= time_.now <= PATIENCE
