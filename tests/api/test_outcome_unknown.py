"""Honest outcomes: when the link to PostgreSQL breaks after a write reached
the server, the answer is ``503 unavailable`` saying the outcome is unknown
(never "nothing was written"), and a retry with the same Idempotency-Key
returns what was committed, once.

The failure is real: a TCP proxy between the app and the database forwards
the write, lets the server execute and commit it, then cuts the connection
instead of passing the server's answer back.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth, finish_setup, legal
from tests.contract.conftest import create_database, drop_database, postgres_admin_url
from tests.contract.test_availability import TcpProxy, through

pytestmark = pytest.mark.postgres


class CommitThenCut(TcpProxy):
    """A proxy that, once armed with some bytes, forwards the client's message
    carrying them, waits for the server's answer (sent after it committed) and
    cuts that connection instead of delivering it."""

    def __init__(self, target: tuple[str, int]) -> None:
        super().__init__(target)
        self.marker: bytes | None = None
        self.cuts = 0
        self.out = False  # down: a connection made while it went down carries nothing either

    def down(self) -> None:
        self.out = True
        super().down()

    def up(self) -> None:
        self.out = False
        super().up()

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
            sent = threading.Event()  # the marked message went to the server
            threading.Thread(target=self._upstream, args=(client, server, sent), daemon=True).start()
            threading.Thread(target=self._downstream, args=(server, client, sent), daemon=True).start()

    def _upstream(self, client: socket.socket, server: socket.socket, sent: threading.Event) -> None:
        seen = b""  # the end of what came before: the marker may straddle two reads
        with contextlib.suppress(OSError):
            while (data := client.recv(65536)) and not self.out:
                marker = self.marker
                if marker is not None and marker in seen + data:
                    # armed before the message leaves: on a loaded machine the server's answer could
                    # otherwise come back before the flag is set, and be delivered (a flake seen in CI)
                    self.marker = None
                    sent.set()
                server.sendall(data)
                seen = (seen + data)[-256:]
        _cut(client, server)

    def _downstream(self, server: socket.socket, client: socket.socket, sent: threading.Event) -> None:
        with contextlib.suppress(OSError):
            while (data := server.recv(65536)) and not self.out:
                if sent.is_set():
                    self.cuts += 1
                    break  # the server answered (it committed): the answer is lost
                client.sendall(data)
        _cut(client, server)


def _cut(*sockets: socket.socket) -> None:
    for s in sockets:
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def app_through_proxy(tmp_path: Path) -> Iterator[tuple[Flask, CommitThenCut]]:
    from events.factory import postgres_stores
    from events.postgres.timeouts import Timeouts
    from service.adapters.signing_keys import load_server_keys

    admin = postgres_admin_url()
    url = create_database(admin, "cc_outcome")
    parts = urlsplit(url)
    proxy = CommitThenCut((parts.hostname or "127.0.0.1", parts.port or 5432))
    proxy.up()
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    keys = load_server_keys(settings)
    store = postgres_stores(through(proxy, url), timeouts=Timeouts(connect=2.0), max_size=3, signer=keys.signer)
    app = create_app(settings, stores=store, signing_keys=keys)
    try:
        yield app, proxy
    finally:
        store.close()
        proxy.down()
        drop_database(admin, url)


def test_a_write_cut_off_after_its_commit_is_unknown_and_its_retry_answers_it(
    app_through_proxy: tuple[Flask, CommitThenCut],
) -> None:
    app, proxy = app_through_proxy
    client = app.test_client()
    key = str(uuid.uuid4())
    name = f"ada-{uuid.uuid4().hex[:8]}"
    body = {"type": "ttr-sf", "players": [{"name": name}, {"name": "bo"}]}

    proxy.marker = name.encode()  # travels in the new game's row
    cut = client.post("/v1/games", json=body, headers={"Idempotency-Key": key})
    assert proxy.cuts == 1
    problem = cut.get_json()
    assert cut.status_code == 503 and problem["code"] == "unavailable", problem
    assert problem["outcome"] == "unknown" and "nothing was written" not in problem["detail"]
    assert "Idempotency-Key" in problem["detail"]
    again = client.post("/v1/games", json=body, headers={"Idempotency-Key": key})
    assert again.status_code == 201, again.get_json()
    game = again.get_json()
    assert client.get(f"/v1/games/{game['id']}").status_code == 200

    playing = finish_setup(client, game)
    seat = playing["active_seats"][0]
    action = {**legal(client, game, seat)[0], "expected_version": playing["version"]}
    action_key = str(uuid.uuid4())
    headers = {**auth(game["seats"][seat]["token"]), "Idempotency-Key": action_key}
    proxy.marker = action_key.encode()
    cut = client.post(f"/v1/games/{game['id']}/actions", json=action, headers=headers)
    assert proxy.cuts == 2
    assert cut.status_code == 503 and cut.get_json()["outcome"] == "unknown", cut.get_json()
    proxy.down()  # a retry while the database is still out: it writes nothing, but the first may have
    down = client.post(f"/v1/games/{game['id']}/actions", json=action, headers=headers).get_json()
    assert down["code"] == "unavailable" and "outcome" not in down
    assert "may have been stored" in down["detail"] and "nothing was written" not in down["detail"], down
    proxy.up()
    deadline = time.monotonic() + 15  # as a client retries, until the pool has connected again
    while (retry := client.post(f"/v1/games/{game['id']}/actions", json=action, headers=headers)).status_code == 503:
        assert time.monotonic() < deadline and "outcome" not in retry.get_json(), retry.get_json()
        time.sleep(0.2)
    assert retry.status_code == 201, retry.get_json()
    answer = retry.get_json()
    assert answer["version"] == playing["version"] + len(answer["events"])  # the committed action, once
    stored = app.extensions["cablecar"].stores.events.load(game["id"])
    assert [e.seq for e in stored] == list(range(1, answer["version"] + 1))
