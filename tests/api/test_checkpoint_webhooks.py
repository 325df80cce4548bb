"""``log.checkpoint`` webhooks (issue 35) on both backends: one signed delivery
per published checkpoint to every organiser-wide webhook subscribed to it,
carrying the checkpoint as ``GET /v1/log/checkpoint`` answers it; none to the
others; never twice, however many dispatchers run; and none lost while no
dispatcher runs."""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from events.integrity.checkpoint import verify_checkpoint
from events.recorders.deliveries import CHECKPOINTS_CURSOR, DispatchState, NewDelivery
from events.recorders.transparency_log import PublishedCheckpoint
from service.api.app import create_app, log_publisher, start_dispatcher, stop_dispatcher
from service.api.runtime import Runtime
from service.usecases.webhook_deliveries import WebhookDispatcher
from tests.api import test_webhooks
from tests.api.conftest import create
from tests.api.test_webhooks import (
    Receiver,
    all_delivered,
    assert_sent_once_per_attempt,
    deliveries,
    fast,
    organiser,
    verify,
    wait_for,
    webhook,
)

receiver = test_webhooks.receiver  # the recording receiver fixture, shared

#: makes a server on the test's database; keyword arguments override its settings
Apps = Callable[..., Flask]
#: the secret every host of one PostgreSQL database runs with
SHARED_SECRET = "the hosts' shared secret, 32 bytes or more"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def apps(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Apps]:
    """Makes servers on one database (processes or hosts), sharing their signing
    key and their secret (CABLECAR_SECRET_KEY, the same on every host); each is
    closed (and its dispatcher stopped) at the end."""
    made: list[Flask] = []
    url: str | None = None
    admin = ""
    if request.param == "postgres":
        from tests.contract.conftest import create_database, postgres_admin_url

        admin = postgres_admin_url()
        url = create_database(admin, "cc_cphooks")

    def make(**settings: Any) -> Flask:
        if url is None:
            app = create_app(fast(tmp_path, **settings))
        else:
            from events.factory import postgres_stores
            from events.integrity.signing import Signer
            from service.adapters.signing_keys import ServerKeys

            keys = made[0].extensions["cablecar"].signing_keys if made else ServerKeys(Signer.generate())
            app = create_app(fast(tmp_path / str(len(made)), **{"secret_key": SHARED_SECRET, **settings}),
                             stores=postgres_stores(url, signer=keys.signer), signing_keys=keys)
        app.testing = True
        made.append(app)
        return app

    try:
        yield make
    finally:
        for app in made:
            stop_dispatcher(app, timeout=10)
            app.extensions["cablecar"].stores.close()
        if url is not None:
            from tests.contract.conftest import drop_database

            drop_database(admin, url)


def publish(app: Flask) -> PublishedCheckpoint:
    """A new game, then a checkpoint covering it, published by calling the
    publisher (on PostgreSQL the global log may show new events a moment later)."""
    create(app.test_client(), seed=None)
    publisher = log_publisher(app).publisher
    deadline = time.monotonic() + 10
    while (published := publisher.publish()) is None:
        assert time.monotonic() < deadline, "no checkpoint was published"
        time.sleep(0.02)
    return published


def _dispatcher(rt: Runtime) -> WebhookDispatcher:
    """A webhook dispatcher on the server's store and game queries (not started)."""
    stores = rt.stores
    return WebhookDispatcher(stores.deliveries, stores.tournaments, stores.log, stores.database, rt.queries,
                             rt.service.secrets.webhooks)


def checkpoints_received(receiver: Receiver) -> dict[int, list[dict[str, Any]]]:
    """The log.checkpoint bodies the receiver got, by tree size."""
    found: dict[int, list[dict[str, Any]]] = {}
    for r in receiver.of("log.checkpoint"):
        found.setdefault(r.json["checkpoint"]["tree_size"], []).append(r.json)
    return found


def test_subscribed_webhooks_get_each_published_checkpoint_signed_and_verifiable(
        apps: Apps, receiver: Receiver) -> None:
    app = apps()
    client = app.test_client()
    rt = app.extensions["cablecar"]
    before = publish(app)  # published before anyone subscribed: nobody gets it
    org = organiser(client)
    hook = webhook(client, org, receiver.url, events=["log.checkpoint", "game.finished"])
    assert hook["events"] == ["game.finished", "log.checkpoint"]
    other = webhook(client, org, receiver.url)  # the default: the game events only
    assert "log.checkpoint" not in other["events"]
    start_dispatcher(app)
    published = [publish(app) for _ in range(3)]

    received = wait_for(lambda: len(checkpoints_received(receiver)) >= 3 and checkpoints_received(receiver))
    time.sleep(0.3)  # nothing more comes
    assert sorted(received) == [cp.tree_size for cp in published]
    assert before.tree_size not in received
    requests = receiver.of("log.checkpoint")
    assert len(requests) == 3 and all(verify(hook["secret"], r) for r in requests)
    for r in requests:
        body = r.json
        size = body["checkpoint"]["tree_size"]
        assert set(body) == {"id", "type", "created_at", "checkpoint"}
        assert body["id"] == r.headers["x-cablecar-delivery"] and body["type"] == "log.checkpoint"
        assert datetime.fromisoformat(body["created_at"]).tzinfo == UTC
        served = client.get(f"/v1/log/checkpoint?tree_size={size}")
        assert served.status_code == 200 and body["checkpoint"] == served.get_json()
        checked = verify_checkpoint(body["checkpoint"]["note"], rt.settings.log_origin,
                                    rt.signing_keys.signer.public_raw)
        assert checked.size == size and base64.b64encode(checked.root_hash).decode() == body["checkpoint"]["root_hash"]
        assert body["checkpoint"]["key_id"] == rt.signing_keys.signer.key_id
    # the delivery log shows them, without a game; the other webhook has none of them
    log = [d for d in deliveries(client, org, hook["id"]) if d["event"] == "log.checkpoint"]
    assert sorted(d["payload"]["checkpoint"]["tree_size"] for d in log) == sorted(received)
    assert {d["state"] for d in log} == {"delivered"} and {d["game_id"] for d in log} == {None}
    assert all(d["event"] != "log.checkpoint" for d in deliveries(client, org, other["id"]))


def test_a_webhook_for_one_batch_cannot_subscribe_to_checkpoints(apps: Apps) -> None:
    client = apps().test_client()
    org = organiser(client)
    created = client.post("/v1/batches", headers=org, json={
        "type": "ttr-sf", "tables": [{"players": [{"name": "Ada"}, {"name": "Bo"}]}]})
    assert created.status_code == 201
    refused = client.post("/v1/webhooks", headers=org, json={
        "url": "http://127.0.0.1:9/hook", "batch": created.get_json()["id"], "events": ["log.checkpoint"]})
    assert refused.status_code == 400, refused.get_json()
    problem = refused.get_json()
    assert problem["code"] == "invalid_request" and "log.checkpoint" in problem["detail"]
    assert problem["errors"][0]["field"] == "events"
    assert client.get("/v1/webhooks", headers=org).get_json()["webhooks"] == []  # nothing written
    unknown = client.post("/v1/webhooks", headers=org, json={"url": "http://127.0.0.1:9/hook", "events": ["log.x"]})
    assert unknown.status_code == 400


def test_several_dispatchers_deliver_each_checkpoint_once(apps: Apps, receiver: Receiver) -> None:
    # The receiver is a thread of this process: on a loaded machine it may answer after the usual 2 s
    # deadline, and the delivery is then sent again, with the same id (at least once: docs/tournaments.md).
    # Under a deadline no load reaches, each checkpoint is created once per webhook and sent once; the
    # deliveries settling, not a pause, says when everything has arrived.
    servers = [apps(webhook_timeout_seconds=30.0) for _ in range(3)]
    client = servers[0].test_client()
    hooks = [webhook(client, organiser(client, name), receiver.url, events=["log.checkpoint"])
             for name in ("North Open", "South Cup")]
    for server in servers:
        start_dispatcher(server)
    published = [publish(servers[i % 3]) for i in range(4)]
    store = servers[0].extensions["cablecar"].stores
    made = wait_for(lambda: all_delivered(store, [h["id"] for h in hooks], 8), 30)  # each checkpoint, to each
    requests = receiver.of("log.checkpoint")
    assert_sent_once_per_attempt(requests, made)
    each = {r.headers["x-cablecar-delivery"]: r for r in requests}.values()
    by_secret = {h["secret"]: sorted(r.json["checkpoint"]["tree_size"] for r in each if verify(h["secret"], r))
                 for h in hooks}
    assert list(by_secret.values()) == [[cp.tree_size for cp in published]] * 2


def test_scans_racing_on_the_cursor_create_each_delivery_once(apps: Apps, receiver: Receiver) -> None:
    """Three dispatchers on three connections scan after each checkpoint, all of
    them having read the same cursor before any writes: one of them creates the
    delivery, the others nothing."""
    servers = [apps() for _ in range(3)]
    client = servers[0].test_client()
    hook = webhook(client, organiser(client), receiver.url, events=["log.checkpoint"])
    dispatchers = [_dispatcher(s.extensions["cablecar"]) for s in servers]
    together = threading.Barrier(len(dispatchers))
    for d in dispatchers:
        read = d.deliveries.checkpoint_dispatch_state

        def read_then_wait(read: Callable[[], DispatchState] = read) -> DispatchState:
            state = read()
            together.wait(10)  # every dispatcher holds the same state before one of them records
            return state

        d.deliveries.checkpoint_dispatch_state = read_then_wait  # type: ignore[method-assign]

    def race(d: WebhookDispatcher) -> tuple[int, int]:
        return d.checkpoints.scan()

    published, created = [], []
    with ThreadPoolExecutor(len(dispatchers)) as pool:
        for _ in range(5):
            published.append(publish(servers[0]))
            created.append(sum(made for _, made in pool.map(race, dispatchers)))
    assert created == [1] * 5
    for d in dispatchers:
        del d.deliveries.checkpoint_dispatch_state  # the store's own again
    store = servers[0].extensions["cablecar"].stores
    assert store.deliveries.checkpoint_dispatch_state().cursor == published[-1].tree_size
    made = store.deliveries.list_deliveries(hook["id"], 200).deliveries
    assert sorted(json.loads(d.body)["checkpoint"]["tree_size"] for d in made) == [cp.tree_size for cp in published]


def test_a_webhook_registered_while_a_scan_decides_misses_nothing(apps: Apps, receiver: Receiver) -> None:
    app = apps()
    client = app.test_client()
    org = organiser(client)
    first = webhook(client, org, receiver.url, events=["log.checkpoint"])
    rt = app.extensions["cablecar"]
    one = publish(app)
    dispatcher = _dispatcher(rt)
    read = rt.stores.deliveries.checkpoint_dispatch_state
    second: dict[str, Any] = {}

    def read_then_register() -> DispatchState:
        state = read()
        second.update(webhook(client, org, receiver.url, events=["log.checkpoint"]))
        return state

    rt.stores.deliveries.checkpoint_dispatch_state = read_then_register
    assert dispatcher.checkpoints.scan() == (1, 0)  # decided without the new webhook: nothing recorded
    del rt.stores.deliveries.checkpoint_dispatch_state
    two = publish(app)
    assert dispatcher.checkpoints.scan() == (2, 3)  # one to the first; two to both
    sizes = {h["id"]: sorted(json.loads(d.body)["checkpoint"]["tree_size"]
                             for d in rt.stores.deliveries.list_deliveries(h["id"]).deliveries) for h in (first, second)}
    assert sizes == {first["id"]: [one.tree_size, two.tree_size], second["id"]: [two.tree_size]}


def test_a_dispatcher_started_later_delivers_what_was_published_meanwhile(apps: Apps, receiver: Receiver) -> None:
    first = apps()
    client = first.test_client()
    hook = webhook(client, organiser(client), receiver.url, events=["log.checkpoint"])
    start_dispatcher(first)
    one = publish(first)
    wait_for(lambda: receiver.of("log.checkpoint"))
    stop_dispatcher(first, timeout=10)
    first.extensions["cablecar"].stores.close()
    second = apps()  # a server started later (another process, or after a restart)
    meanwhile = [publish(second) for _ in range(2)]  # no dispatcher runs
    time.sleep(0.2)
    assert len(receiver.of("log.checkpoint")) == 1
    start_dispatcher(second)
    wait_for(lambda: len(receiver.of("log.checkpoint")) >= 3)
    time.sleep(0.3)
    sizes = [r.json["checkpoint"]["tree_size"] for r in receiver.of("log.checkpoint")]
    assert sorted(sizes) == [one.tree_size] + [cp.tree_size for cp in meanwhile]
    assert all(verify(hook["secret"], r) for r in receiver.of("log.checkpoint"))


def test_a_checkpoint_delivery_is_unique_per_webhook_and_names_its_tree_size(apps: Apps, receiver: Receiver) -> None:
    app = apps()
    client = app.test_client()
    store = app.extensions["cablecar"].stores
    hook = webhook(client, organiser(client), receiver.url, events=["log.checkpoint"])
    now = datetime.now(UTC)
    state = store.deliveries.checkpoint_dispatch_state()
    first = NewDelivery("d-one", hook["id"], None, "log.checkpoint", "{}", occurrence=7)
    again = NewDelivery("d-two", hook["id"], None, "log.checkpoint", "{}", occurrence=7)
    assert store.deliveries.record_deliveries(state.cursor, state.cursor, [first], now, cursor=CHECKPOINTS_CURSOR)
    assert store.deliveries.record_deliveries(state.cursor, state.cursor, [again], now, cursor=CHECKPOINTS_CURSOR)
    assert [d.delivery_id for d in store.deliveries.list_deliveries(hook["id"]).deliveries] == ["d-one"]
    # a stale cursor writes nothing
    assert not store.deliveries.record_deliveries(state.cursor + 1, state.cursor + 2, [], now, cursor=CHECKPOINTS_CURSOR)
    with pytest.raises(ValueError, match="tree size"):
        NewDelivery("d-three", hook["id"], None, "log.checkpoint", "{}")
    with pytest.raises(ValueError, match="no dispatch cursor"):
        store.deliveries.record_deliveries(0, 0, [], now, cursor="elsewhere")
    assert store.deliveries.checkpoint_dispatch_state() == state

