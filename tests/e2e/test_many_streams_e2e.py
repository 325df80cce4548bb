"""Issue 36: event streams at production scale on the embedded default.

``cablecar serve`` with its default settings (gevent workers on one SQLite
file) holds hundreds of streams from a handful of addresses at once, each
getting the next event within seconds, and a stream whose client closed its
connection gives its place back within about a second.

Each client address is a loopback address of its own (Linux routes the whole
127.0.0.0/8 to the loopback interface), since the server trusts no proxy header
by default.  No PostgreSQL or Redis needed."""

from __future__ import annotations

import json
import re
import selectors
import socket
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bench.load.soak import Server

pytestmark = pytest.mark.e2e

_ID = re.compile(rb"\nid: (\d+)\n")


class Stream:
    """One event stream on a raw socket from ``source``, read without a thread."""

    def __init__(self, port: int, game: str, source: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        self.sock.sendall(f"GET /v1/games/{game}/events/stream HTTP/1.1\r\nHost: cablecar\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.data = b""
        self.eof = False

    def status(self) -> int | None:
        """The answer's status, once its first line arrived."""
        line, found, _ = self.data.partition(b"\r\n")
        return int(line.split()[1]) if found else None

    def ids(self) -> list[int]:
        return [int(n) for n in _ID.findall(self.data)]

    def close(self) -> None:
        self.sock.close()


def read_until(streams: list[Stream], done: Callable[[], bool], timeout: float) -> bool:
    """Read every stream until ``done()`` (True) or ``timeout`` (False)."""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        for s in streams:
            if not s.eof:
                sel.register(s.sock, selectors.EVENT_READ, s)
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            for key, _ in sel.select(min(left, 0.2)):
                s = key.data
                try:
                    chunk = s.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    s.eof = True
                    sel.unregister(s.sock)
                s.data += chunk
    return True


def _call(url: str, method: str, path: str, body: object = None, token: str | None = None) -> dict[str, object]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url + path, data, headers, method=method), timeout=30) as r:
        return dict(json.loads(r.read()))


def _act(url: str, game: dict[str, object]) -> None:
    """One legal action of the game's active seat."""
    gid = game["id"]
    view = _call(url, "GET", f"/v1/games/{gid}")
    seat = view["active_seats"][0]  # type: ignore[index]
    token = game["seats"][seat]["token"]  # type: ignore[index]
    legal = _call(url, "GET", f"/v1/games/{gid}/legal-actions", token=token)
    action = {**legal["actions"][0], "expected_version": legal["version"]}  # type: ignore[index]
    _call(url, "POST", f"/v1/games/{gid}/actions", action, token)


def _game(url: str) -> dict[str, object]:
    return _call(url, "POST", "/v1/games", {"type": "cable-car", "players": [{"name": "ada"}, {"name": "bo"}]})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``cablecar serve`` as it starts by default (no worker, thread or stream setting)."""
    tmp = tmp_path_factory.mktemp("streams")
    argv = [sys.executable, "-m", "cablecar.cli", "serve", "--host", "127.0.0.1", "--port", "{port}",
            "--data-dir", str(tmp / "data")]
    srv = Server(argv, {"CABLECAR_WEBHOOKS": "off", "CABLECAR_BOT_RUNNERS": "0"}, Path(tmp / "serve.log"), 2)
    srv.wait_ready()
    yield srv
    srv.stop()


def test_two_hundred_streams_from_ten_addresses_are_all_held_and_all_get_the_next_event(server: Server) -> None:
    games = [_game(server.url) for _ in range(4)]
    streams = [Stream(server.port, str(games[i % 4]["id"]), f"127.0.0.{10 + i % 10}") for i in range(200)]
    try:
        # every stream admitted (200, not 503 streams_busy) and caught up with its game's first event
        assert read_until(streams, lambda: all(s.ids() or s.eof for s in streams), 20)
        assert [s.status() for s in streams] == [200] * 200
        started = time.monotonic()
        for game in games:
            _act(server.url, game)
        assert read_until(streams, lambda: all(2 in s.ids() for s in streams), 10), \
            sorted({(s.status(), tuple(s.ids())) for s in streams})
        assert time.monotonic() - started < 10
        # /v1/health still answers at once
        t = time.monotonic()
        assert _call(server.url, "GET", "/v1/health")
        assert time.monotonic() - t < 2
    finally:
        for s in streams:
            s.close()


def test_a_closed_streams_place_is_free_again_within_a_second(server: Server) -> None:
    game = str(_game(server.url)["id"])
    source = "127.0.0.42"
    held: list[Stream] = []
    try:
        while True:  # up to the per-address cap (20 by default), then 503
            s = Stream(server.port, game, source)
            assert read_until([s], lambda s=s: s.status() is not None, 10)  # type: ignore[misc]
            if s.status() != 200:
                assert s.status() == 503 and len(held) >= 4, (s.status(), len(held))
                s.close()
                break
            held.append(s)
            assert len(held) <= 100
        assert read_until(held, lambda: all(s.ids() for s in held), 10)
        held.pop().close()
        closed_at = time.monotonic()
        while True:  # asked every 0.1 s: the first ask granted must have been sent within 1 s of the close
            asked_at = time.monotonic()
            s = Stream(server.port, game, source)
            read_until([s], lambda s=s: s.status() is not None, 10)  # type: ignore[misc]
            if s.status() == 200:
                held.append(s)
                break
            s.close()
            assert asked_at - closed_at < 1.0, "the closed stream's place was not given back within 1 s"
            time.sleep(0.1)
        assert asked_at - closed_at < 1.0
    finally:
        for s in held:
            s.close()
