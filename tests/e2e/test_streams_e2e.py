"""Event streams against gunicorn + PostgreSQL + Redis: many watchers leave the
server answering, each gets every event in order, the caps answer 503, and a
stopping worker ends its streams at once."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import signal
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bots.client import STRATEGIES, Client, create_game, play_game
from tests.e2e.conftest import Server, start_gunicorn, stop

pytestmark = pytest.mark.e2e


class Watcher:
    """One open event stream, read by a thread of its own."""

    def __init__(self, server: Server, game_id: str, source: str = "127.0.0.1") -> None:
        parts = urlsplit(server.url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60,
                                               source_address=(source, 0))
        self.conn.request("GET", f"/v1/games/{game_id}/events/stream")
        self.resp = self.conn.getresponse()
        self.ids: list[int] = []
        self.ended = False
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        if self.resp.status == 200:
            self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.resp:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    self.ids.append(int(line[4:]))
                elif line == "event: end":
                    self.ended = True
        except (OSError, http.client.HTTPException) as e:
            self.error = e

    def problem(self) -> dict[str, object]:
        return dict(json.loads(self.resp.read()))

    def close(self) -> None:
        # Shut down first so that the reading thread sees the end, not a closed object.
        if self.conn.sock is not None:
            with contextlib.suppress(OSError):
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        self.conn.close()


def _timed_get(url: str) -> float:
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=10) as resp:
        assert resp.status == 200
    return time.monotonic() - start


@pytest.fixture
def lots_of_streams(tmp_path: Path, pg_url: str, redis_url: str) -> Iterator[Server]:
    srv = start_gunicorn(tmp_path, {"DATABASE_URL": pg_url, "REDIS_URL": redis_url, "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef",
                                    "CABLECAR_SSE_MAX_STREAMS_PER_ADDRESS": "100"}, workers=2)
    yield srv
    stop(srv)


def test_sixty_watchers_leave_the_server_answering_and_see_every_event(lots_of_streams: Server) -> None:
    server = lots_of_streams
    client = Client(server.url)
    run = create_game(client, "ttr-sf", ["ada", "bo"], seed="e2e-watched")
    # More streams than 2 workers x 8 threads: with a thread each, nothing else would answer.
    watchers = [Watcher(server, run.game_id) for _ in range(60)]
    assert [w.resp.status for w in watchers] == [200] * 60
    health = [_timed_get(server.url + "/v1/health") for _ in range(5)]
    assert max(health) < 2.0, health

    done = threading.Event()
    during: list[float] = []

    def probe() -> None:
        while not done.is_set():
            during.append(_timed_get(server.url + "/v1/health"))
            time.sleep(0.1)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    final = play_game(client, run, STRATEGIES["greedy"], random.Random(7))
    done.set()
    prober.join()
    assert final["status"] == "finished"
    assert during and max(during) < 2.0, during

    deadline = time.monotonic() + 60
    while not all(w.ended for w in watchers) and time.monotonic() < deadline:
        time.sleep(0.2)
    for w in watchers:
        assert w.error is None and w.ended
        assert w.ids == list(range(1, final["version"] + 1))
        w.close()


@pytest.fixture
def capped(tmp_path: Path, pg_url: str, redis_url: str) -> Iterator[Server]:
    srv = start_gunicorn(tmp_path, {"DATABASE_URL": pg_url, "REDIS_URL": redis_url, "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef",
                                    "CABLECAR_SSE_MAX_STREAMS": "3", "CABLECAR_SSE_MAX_STREAMS_PER_ADDRESS": "2",
                                    # a closed stream is noticed at its next heartbeat
                                    "CABLECAR_SSE_HEARTBEAT_SECONDS": "1"},
                         workers=1)
    yield srv
    stop(srv)


def test_stream_caps_answer_503_with_retry_after(capped: Server) -> None:
    client = Client(capped.url)
    game = create_game(client, "ttr-sf", ["ada", "bo"], seed="e2e-capped").game_id
    first, second = Watcher(capped, game), Watcher(capped, game)
    assert (first.resp.status, second.resp.status) == (200, 200)

    per_address = Watcher(capped, game)
    assert per_address.resp.status == 503
    assert int(per_address.resp.getheader("Retry-After", "0")) > 0
    assert per_address.resp.getheader("Content-Type") == "application/problem+json"
    body = per_address.problem()
    assert body["code"] == "streams_busy" and "address" in str(body["detail"])

    # Another address still gets in, up to the worker's cap of 3.
    other = Watcher(capped, game, source="127.0.0.2")
    assert other.resp.status == 200
    over = Watcher(capped, game, source="127.0.0.3")
    assert over.resp.status == 503 and over.problem()["code"] == "streams_busy"
    assert _timed_get(capped.url + "/v1/health") < 2.0

    # A closed stream gives its place back.
    first.close()
    deadline = time.monotonic() + 20
    while True:
        again = Watcher(capped, game, source="127.0.0.3")
        if again.resp.status == 200 or time.monotonic() > deadline:
            break
        again.close()
        time.sleep(0.5)
    assert again.resp.status == 200
    for w in (second, per_address, other, over, again):
        w.close()


def test_a_stopping_worker_ends_its_streams_at_once(tmp_path: Path, pg_url: str, redis_url: str) -> None:
    srv = start_gunicorn(tmp_path, {"DATABASE_URL": pg_url, "REDIS_URL": redis_url, "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef",
                                    "CABLECAR_SSE_MAX_SECONDS": "300"}, workers=2)
    try:
        game = create_game(Client(srv.url), "ttr-sf", ["ada", "bo"], seed="e2e-stop").game_id
        watchers = [Watcher(srv, game) for _ in range(6)]
        assert [w.resp.status for w in watchers] == [200] * 6
        time.sleep(0.5)
        start = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        srv.proc.wait(timeout=30)
        took = time.monotonic() - start
        # gunicorn's graceful timeout is 20 s: a worker waiting for its streams would take that long.
        # A clean stop still waits for idle keep-alive connections (gunicorn's keepalive, 5 s),
        # looking each second.
        assert took < 14.0, took
        # ... and a worker that crashed in its stop signal would be quick too: it must exit cleanly
        log = srv.log.read_text()
        assert "Exception in worker process" not in log and "exited with code" not in log, log[-3000:]
        for w in watchers:
            w.thread.join(timeout=5)
            assert not w.thread.is_alive()
            assert w.ids  # it had the game's opening events before the stop
            w.close()
    finally:
        if srv.proc.poll() is None:
            srv.proc.kill()


def test_a_rotation_on_one_host_ends_the_old_tokens_stream_on_another(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    """Issue 25: a stream on the old token kept the seat's hidden cards coming
    for CABLECAR_SSE_MAX_SECONDS.  Two servers (two hosts) on one database:
    the rotation on one ends the stream on the other within a few seconds."""
    env = {"DATABASE_URL": pg_url, "REDIS_URL": redis_url,
           "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef"}
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = start_gunicorn(tmp_path / "one", env, workers=2)
    two = start_gunicorn(tmp_path / "two", env, workers=2)
    try:
        created = Client(one.url).request("POST", "/v1/games", {"type": "ttr-sf", "players": [
            {"name": "Ada"}, {"name": "Bo"}]})
        game_id, token = created["id"], created["seats"][0]["token"]
        host, port = two.url.split("//", 1)[1].rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=20) as stream:
            stream.sendall(f"GET /v1/games/{game_id}/events/stream HTTP/1.0\r\nHost: x\r\n"
                           f"Authorization: Bearer {token}\r\n\r\n".encode())
            assert stream.recv(64).startswith(b"HTTP/1.0 200")
            time.sleep(1.0)
            rotate = urllib.request.Request(f"{one.url}/v1/games/{game_id}/seats/0/token", method="POST",
                                            headers={"Authorization": f"Bearer {created['host_token']}"})
            with urllib.request.urlopen(rotate, timeout=10) as resp:
                assert resp.status == 200
            rotated_at = time.monotonic()
            said, closed = b"", False
            while not closed and time.monotonic() - rotated_at < 10:
                stream.settimeout(max(0.1, 10 - (time.monotonic() - rotated_at)))
                try:
                    chunk = stream.recv(65536)
                except TimeoutError:
                    break
                said, closed = said + chunk, not chunk
            took = time.monotonic() - rotated_at
        assert closed, "the old token's stream was still open 10 s after the rotation"
        assert took < 5, f"the old token's stream lasted {took:.1f} s after the rotation"
        assert b"token was rotated" in said
    finally:
        stop(one)
        stop(two)
