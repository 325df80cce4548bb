"""The reference bot's HTTP client survives an answer cut off mid-body (a
worker killed while answering): it retries with the same Idempotency-Key."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest

from service.bot import Client
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
