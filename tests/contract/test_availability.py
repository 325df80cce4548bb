"""PostgreSQL outages: fail fast with StoreUnavailable, recover by itself.

The outage is simulated with a TCP proxy in front of the test server: taking
the proxy down cuts every connection and refuses new ones, as a stopped
database would, without disturbing the shared server; silencing it keeps
every connection open and accepts new ones but passes nothing on, as a
database cut off by the network or frozen (``SIGSTOP``) would.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from events.factory import postgres_stores
from events.postgres.timeouts import Timeouts
from events.records import NewEvent, StoreUnavailable
from tests.contract.conftest import TEST_SIGNER


class TcpProxy:
    """Forwards 127.0.0.1:<port> to a target; ``down()`` / ``up()`` simulate an outage."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        #: set: accept and hold connections, pass nothing on (a database that answers nothing)
        self.silent = threading.Event()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        if self._listener is not None:
            # shutdown() wakes the thread blocked in accept(); close() alone would not
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            if self.silent.is_set():
                with self._lock:
                    self._sockets.append(client)  # held open, never answered
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if not self.silent.is_set():
                    sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def proxy(postgres_url: str) -> Iterator[TcpProxy]:
    parts = urlsplit(postgres_url)
    p = TcpProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    p.up()
    yield p
    p.down()


def through(proxy: TcpProxy, url: str) -> str:
    parts = urlsplit(url)
    netloc = f"{parts.username}@127.0.0.1:{proxy.port}" if parts.username else f"127.0.0.1:{proxy.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def test_an_unreachable_database_fails_fast() -> None:
    store = postgres_stores("postgresql://cc@127.0.0.1:9/nothing", timeouts=Timeouts(connect=1.0))
    try:
        for call in (store.ping, lambda: store.events.version("g")):
            t0 = time.monotonic()
            with pytest.raises(StoreUnavailable):
                call()
            assert time.monotonic() - t0 < 3.0
    finally:
        store.close()


@pytest.mark.postgres
def test_the_store_recovers_when_the_database_comes_back(proxy: TcpProxy, postgres_url: str) -> None:
    store = postgres_stores(through(proxy, postgres_url), timeouts=Timeouts(connect=1.0), max_size=3, signer=TEST_SIGNER)
    try:
        game_id = f"outage-{uuid.uuid4().hex[:12]}"
        store.events.create_game(game_id, "test-game", {}, [NewEvent("started", {})], "playing")
        proxy.down()
        t0 = time.monotonic()
        with pytest.raises(StoreUnavailable):
            store.events.append(game_id, 1, [NewEvent("during-outage", {})])
        assert time.monotonic() - t0 < 4.0
        with pytest.raises(StoreUnavailable):
            store.ping()
        proxy.up()
        deadline = time.monotonic() + 20.0
        while True:
            try:
                store.ping()
                break
            except StoreUnavailable:
                assert time.monotonic() < deadline, "the store did not recover within 20 s"
                time.sleep(0.1)
        assert store.events.append(game_id, 1, [NewEvent("after-outage", {})]).events[0].seq == 2
        assert [e.type for e in store.events.load(game_id)] == ["started", "after-outage"]
    finally:
        store.close()


@pytest.mark.postgres
def test_a_database_that_answers_nothing_fails_within_a_bound(proxy: TcpProxy, postgres_url: str) -> None:
    # The connections stay open and new ones are accepted, but nothing comes back: without a client-side
    # bound (the watchdog) a call would wait for TCP's own timeouts, minutes.
    bounds = Timeouts(connect=2.0, statement=1.0, keepalive=4.0)
    store = postgres_stores(through(proxy, postgres_url), timeouts=bounds, max_size=2, signer=TEST_SIGNER)
    try:
        game_id = f"silent-{uuid.uuid4().hex[:12]}"
        store.events.create_game(game_id, "test-game", {}, [NewEvent("started", {})], "playing")
        proxy.silent.set()
        for call in (lambda: store.events.append(game_id, 1, [NewEvent("unanswered", {})]), store.ping,
                     lambda: store.events.version(game_id)):
            t0 = time.monotonic()
            with pytest.raises(StoreUnavailable):
                call()
            assert time.monotonic() - t0 < bounds.held + bounds.connect + 1.5
        proxy.silent.clear()
        proxy.down()  # the silent connections go: the store reconnects by itself
        proxy.up()
        deadline = time.monotonic() + 20.0
        while True:
            try:
                store.ping()
                break
            except StoreUnavailable:
                assert time.monotonic() < deadline, "the store did not recover within 20 s"
                time.sleep(0.1)
        assert [e.type for e in store.events.load(game_id)][0] == "started"
    finally:
        store.close()
