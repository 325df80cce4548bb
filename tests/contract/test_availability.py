"""PostgreSQL outages: fail fast with StoreUnavailable, recover by itself.

The outage is simulated with a TCP proxy in front of the test server: taking
the proxy down cuts every connection and refuses new ones, as a stopped
database would, without disturbing the shared server.
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

from events.postgres import PostgresStore
from events.store import NewEvent, StoreUnavailable
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
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
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
    store = PostgresStore("postgresql://cc@127.0.0.1:9/nothing", timeout=1.0)
    try:
        for call in (store.ping, lambda: store.version("g")):
            t0 = time.monotonic()
            with pytest.raises(StoreUnavailable):
                call()
            assert time.monotonic() - t0 < 3.0
    finally:
        store.close()


@pytest.mark.postgres
def test_the_store_recovers_when_the_database_comes_back(proxy: TcpProxy, postgres_url: str) -> None:
    store = PostgresStore(through(proxy, postgres_url), timeout=1.0, max_size=3, signer=TEST_SIGNER)
    try:
        game_id = f"outage-{uuid.uuid4().hex[:12]}"
        store.create_game(game_id, "test-game", {}, [NewEvent("started", {})], "playing")
        proxy.down()
        t0 = time.monotonic()
        with pytest.raises(StoreUnavailable):
            store.append(game_id, 1, [NewEvent("during-outage", {})])
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
        assert store.append(game_id, 1, [NewEvent("after-outage", {})]).events[0].seq == 2
        assert [e.type for e in store.load(game_id)] == ["started", "after-outage"]
    finally:
        store.close()
