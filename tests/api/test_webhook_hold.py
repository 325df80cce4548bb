"""Webhooks that cannot be held: one deadline per attempt whatever the
receiver does, sending beside scanning so a silent receiver delays only its
own deliveries, a cap on webhooks per organiser, error texts that reveal no
resolver answers, and tunnelled IPv6 ranges refused."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask

from service.adapters.webhooks.transport import http_send, not_public
from service.api.app import create_app, start_dispatcher, stop_dispatcher
from tests.api import test_webhooks
from tests.api.conftest import auth
from tests.api.test_webhooks import Receiver, fast, organiser, wait_for, webhook
from tests.raw_server import raw_server

receiver = test_webhooks.receiver  # the recording receiver fixture, shared


def _trickle(conn: socket.socket, stop: threading.Event) -> None:
    """Read the request, then answer one byte every 0.3 s (for at most 8 s):
    each read is quick, the answer never completes."""
    with conn:
        conn.recv(65536)
        for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 40:
            if stop.wait(0.3):
                return
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                return


@pytest.fixture
def trickler() -> Iterator[str]:
    with raw_server(_trickle) as base:
        yield base + "/hook"


def test_a_trickling_receiver_cannot_hold_an_attempt_past_its_deadline(trickler: str) -> None:
    started = time.monotonic()
    sent = http_send(trickler, b"{}", {"Content-Type": "application/json"}, 1.0, allow_private=True)
    took = time.monotonic() - started
    assert sent.status_code is None and not sent.ok
    assert sent.error == "no complete answer within 1 s"
    assert took < 2.0, f"the attempt took {took:.1f} s with a 1 s deadline"


def _never_answer(conn: socket.socket, stop: threading.Event) -> None:
    with conn:
        stop.wait(30)


@pytest.fixture
def hung() -> Iterator[str]:
    """A receiver that accepts and never answers."""
    with raw_server(_never_answer) as base:
        yield base + "/hook"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(fast(tmp_path, webhook_timeout_seconds=4.0, webhooks_per_organiser=2))
    app.testing = True
    assert start_dispatcher(app) is not None
    yield app
    stop_dispatcher(app, timeout=10)
    app.extensions["cablecar"].stores.close()


def test_a_silent_receiver_delays_nobody_elses_deliveries(app: Flask, hung: str, receiver: Receiver) -> None:
    client = app.test_client()
    silent_org, prompt_org = organiser(client, "Silent"), organiser(client, "Prompt")
    webhook(client, silent_org, hung, events=["game.started"])
    webhook(client, prompt_org, receiver.url, events=["game.started"])
    players = [{"name": "Ada"}, {"name": "Bo"}]
    for _ in range(3):  # the silent organiser's games come first
        assert client.post("/v1/games", json={"type": "ttr-sf", "players": players}, headers=silent_org).status_code == 201
    time.sleep(0.3)  # its attempts are in flight, each held up to the 4 s deadline
    started = time.monotonic()
    created = client.post("/v1/games", json={"type": "ttr-sf", "players": players}, headers=prompt_org)
    assert created.status_code == 201
    wait_for(lambda: receiver.of("game.started"), timeout=10)
    took = time.monotonic() - started
    assert took < 2.0, f"the prompt organiser waited {took:.1f} s behind a silent receiver"
    assert receiver.of("game.started")[0].json["game"]["id"] == created.get_json()["id"]


def test_a_flood_of_hanging_deliveries_delays_only_its_organiser(app: Flask, hung: str, receiver: Receiver) -> None:
    """Issue 25: one organiser's batch to hanging receivers (more deliveries
    than the dispatcher has senders) queued everyone else's deliveries behind
    it; now claims take turns across organisers and cap each one's in flight."""
    client = app.test_client()
    flood_org, prompt_org = organiser(client, "Flood"), organiser(client, "Prompt")
    webhook(client, flood_org, hung, events=["game.started"])
    webhook(client, flood_org, hung + "2", events=["game.started"])
    webhook(client, prompt_org, receiver.url, events=["game.started"])
    tables = [{"players": [{"name": "Ada"}, {"name": "Bo"}]} for _ in range(20)]
    flood = client.post("/v1/batches", json={"type": "ttr-sf", "tables": tables}, headers=flood_org)
    assert flood.status_code == 201  # 40 deliveries, each held 4 s by a silent receiver
    time.sleep(0.5)
    started = time.monotonic()
    created = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "Cy"}, {"name": "Di"}]},
                          headers=prompt_org)
    assert created.status_code == 201
    wait_for(lambda: receiver.of("game.started"), timeout=30)
    took = time.monotonic() - started
    assert took < 2.0, f"the prompt organiser waited {took:.1f} s behind another organiser's flood"


def test_an_organiser_holds_a_limited_number_of_webhooks(app: Flask, receiver: Receiver) -> None:
    client = app.test_client()
    org = organiser(client)
    first = webhook(client, org, receiver.url)
    webhook(client, org, receiver.url + "2")
    refused = client.post("/v1/webhooks", json={"url": receiver.url + "3"}, headers=org)
    assert refused.status_code == 409
    problem = refused.get_json()
    assert problem["code"] == "limit_reached" and "CABLECAR_WEBHOOKS_PER_ORGANISER" in problem["detail"]
    assert len(client.get("/v1/webhooks", headers=org).get_json()["webhooks"]) == 2  # nothing written
    assert client.delete(f"/v1/webhooks/{first['id']}", headers=org).status_code in (200, 204)
    assert client.post("/v1/webhooks", json={"url": receiver.url + "3"}, headers=org).status_code == 201
    other = auth(client.post("/v1/organisers", json={"name": "Other"}).get_json()["token"])
    assert client.post("/v1/webhooks", json={"url": receiver.url}, headers=other).status_code == 201


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "64:ff9b::808:808",  # NAT64 of a public address: still refused (the gateway decides)
        "64:ff9b:1::1",  # local-use NAT64
        "2002:a00:1::1",  # 6to4 of 10.0.0.1
        "2002:808:808::1",  # 6to4 of a public address
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "::ffff:8.8.8.8",  # IPv4-mapped
        "::ffff:0:8.8.8.8",  # IPv4-translated
    ],
)
def test_ipv6_addresses_that_embed_an_ipv4_one_are_not_public(address: str) -> None:
    assert not_public(address)


@pytest.mark.parametrize("address", [
    "::7f00:1",  # IPv4-compatible 127.0.0.1 (issue 25)
    "fec0::1",  # site-local (issue 25)
    "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "2001:db8::1", "100::1", "3fff::1",
    "4000::1",  # outside global unicast (unassigned today)
    "127.0.0.1", "10.0.0.1", "100.64.0.1", "169.254.169.254", "192.0.2.1", "240.0.0.1", "255.255.255.255",
    "224.0.0.1", "0.0.0.0",
])
def test_only_global_unicast_addresses_are_public(address: str) -> None:
    assert not_public(address)


@pytest.mark.parametrize("address", ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"])
def test_global_unicast_addresses_are_public(address: str) -> None:
    assert not not_public(address)


def test_error_texts_never_repeat_resolver_answers() -> None:
    private = http_send("http://localhost:9/hook", b"{}", {}, 1.0, allow_private=False)
    assert private.error and "not a public address" in private.error
    assert "127.0.0.1" not in private.error and "::1" not in private.error
    unknown = http_send("http://no-such-host.invalid/hook", b"{}", {}, 1.0, allow_private=True)
    assert unknown.error == "the host name did not resolve"
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    refused = http_send(f"http://127.0.0.1:{port}/hook", b"{}", {}, 1.0, allow_private=True)
    assert refused.error == "connection refused"


def test_the_dispatcher_policy_counts_senders() -> None:
    from service.adapters.webhooks.policy import DispatchPolicy

    with pytest.raises(ValueError, match="senders"):
        replace(DispatchPolicy(), senders=0)
