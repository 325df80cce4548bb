"""Webhooks end to end: a real HTTP receiver on 127.0.0.1, signed deliveries
driven from the event log, retries, give-ups, restarts, several dispatchers,
and the dedicated ``cablecar webhooks run`` process.

The apps here use short delays (``FAST``) so that retries take milliseconds.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.encoding.timestamps import format_timestamp
from service.adapters.webhooks.hmac import sign, signature_matches
from service.adapters.webhooks.policy import DispatchPolicy
from service.adapters.webhooks.transport import SendResult, http_send, not_public
from service.api.app import WEBHOOKS_EXTENSION, create_app, start_dispatcher, stop_dispatcher
from service.config import Settings
from service.usecases.webhook_deliveries import PassReport, WebhookDispatcher
from tests.api.conftest import auth, create, play_to_end
from tests.api.test_openapi import check_response, component, errors_of
from tests.e2e.conftest import free_port, wait_http

ROOT = Path(__file__).resolve().parents[2]
MAX_ATTEMPTS = 3


def fast(data_dir: Path, **overrides: Any) -> Settings:
    """Settings whose dispatcher polls every 20 ms and retries after 50, 100, 200 ms."""
    base = Settings(
        data_dir=str(data_dir),
        sse_max_seconds=2,
        sse_heartbeat_seconds=1,
        webhook_poll_seconds=0.02,
        webhook_timeout_seconds=2.0,
        webhook_max_attempts=MAX_ATTEMPTS,
        webhook_backoff_seconds=0.05,
        webhook_backoff_max_seconds=0.2,
        webhook_private_addresses=True,  # the receiver listens on 127.0.0.1
    )
    return replace(base, **overrides)


# --------------------------------------------------------------- the receiver
@dataclass
class Received:
    """One request the receiver got (header names in lower case)."""

    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    """An HTTP server in a thread that records every POST and answers with
    the next status of ``script`` (then ``default``)."""

    url: str
    requests: list[Received] = field(default_factory=list)
    script: list[int] = field(default_factory=list)
    default: int = 200
    gate: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def of(self, event: str) -> list[Received]:
        with self.lock:
            return [r for r in self.requests if r.headers.get("x-cablecar-event") == event]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(url="")
    state.gate.set()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            state.gate.wait(10)
            with state.lock:
                state.requests.append(Received({k.lower(): v for k, v in self.headers.items()}, body))
                status = state.script.pop(0) if state.script else state.default
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    state.gate.set()
    server.shutdown()
    server.server_close()


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"condition not met within {timeout} s")


# ------------------------------------------------------------------ the app
@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return fast(tmp_path)


@pytest.fixture
def app(settings: Settings) -> Iterator[Flask]:
    """The app with its dispatcher running, as in a server worker."""
    app = create_app(settings)
    app.testing = True
    assert start_dispatcher(app) is not None
    yield app
    stop_dispatcher(app, timeout=10)
    app.extensions["cablecar"].stores.close()


def organiser(client: FlaskClient, name: str = "Bay Area Open") -> dict[str, str]:
    resp = client.post("/v1/organisers", json={"name": name})
    assert resp.status_code == 201, resp.get_json()
    body: dict[str, str] = resp.get_json()
    return auth(body["token"])


def webhook(client: FlaskClient, org: dict[str, str], url: str, **body: Any) -> dict[str, Any]:
    resp = client.post("/v1/webhooks", json={"url": url, **body}, headers=org)
    assert resp.status_code == 201, resp.get_json()
    hook: dict[str, Any] = check_response(resp, "/v1/webhooks", "post")
    return hook


def batch(client: FlaskClient, org: dict[str, str], tables: int = 1, seed: str = "hook") -> dict[str, Any]:
    body = {
        "type": "ttr-sf",
        "tables": [
            {"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": f"{seed}-{i}"} for i in range(tables)
        ],
    }
    resp = client.post("/v1/batches", json=body, headers=org)
    assert resp.status_code == 201, resp.get_json()
    created: dict[str, Any] = check_response(resp, "/v1/batches", "post")
    return created


def deliveries(client: FlaskClient, org: dict[str, str], hook_id: str) -> list[dict[str, Any]]:
    resp = client.get(f"/v1/webhooks/{hook_id}/deliveries?limit=200", headers=org)
    page = check_response(resp, "/v1/webhooks/{webhook_id}/deliveries")
    found: list[dict[str, Any]] = page["deliveries"]
    return found


def verify(secret: str, received: Received) -> bool:
    """What a receiver does (the README's five lines)."""
    expected = "sha256=" + hmac.new(secret.encode(), received.body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, received.headers.get("x-cablecar-signature", ""))


def all_delivered(store: Any, hook_ids: list[str], count: int) -> list[Any] | None:
    """The deliveries of the webhooks ``hook_ids``, once there are ``count`` and every one is delivered
    (each recorded after its receiver's answer: the receiver holds them all by then); else None."""
    made = [d for h in hook_ids for d in store.deliveries.list_deliveries(h, 200).deliveries]
    return made if len(made) == count and all(d.state == "delivered" for d in made) else None


def assert_sent_once_per_attempt(requests: list[Received], made: list[Any]) -> None:
    """Every delivery of ``made`` reached the receiver, and none more often than it was attempted.

    A delivery is sent at least once (docs/tournaments.md): an attempt that got no complete answer within
    the timeout (a receiver answering late, as this test process's own does on a loaded machine) is
    recorded as failed and sent again, with the same id, which the receiver deduplicates.  A delivery
    created twice (two ids), or sent by two dispatchers in one attempt, breaks this."""
    ids = [r.headers["x-cablecar-delivery"] for r in requests]
    assert sorted(set(ids)) == sorted(d.delivery_id for d in made)
    for d in made:
        assert 1 <= ids.count(d.delivery_id) <= len(d.history), (d.delivery_id, ids.count(d.delivery_id), d.history)


# ------------------------------------------------------------------- tests
def test_signed_deliveries_reach_a_real_receiver(client: FlaskClient, receiver: Receiver) -> None:
    org = organiser(client)
    hook = webhook(client, org, receiver.url)
    # the default: every game event type (issue 14 added seat_out and cancelled; log.checkpoint only when named)
    assert hook["events"] == ["game.started", "game.finished", "game.seat_out", "game.cancelled"]
    assert hook["secret"].startswith("whsec_")
    created = batch(client, org)
    game = created["games"][0]
    started = wait_for(lambda: receiver.of("game.started"))
    assert started[0].json["game"] == {
        "id": game["id"],
        "type": "ttr-sf",
        "status": "setup",
        "batch": created["id"],
        "ref": None,  # no refs given: null (tests/api/test_tournament_refs.py gives them)
        "players": [{"seat": 0, "name": "Ada", "ref": None}, {"seat": 1, "name": "Bo", "ref": None}],
    }
    play_to_end(client, game)
    [finished] = wait_for(lambda: receiver.of("game.finished"))
    for received in (started[0], finished):
        assert verify(hook["secret"], received)
        assert signature_matches(hook["secret"], received.body, received.headers["x-cablecar-signature"])
        assert not verify("whsec_not-the-secret", received)
        assert received.headers["x-cablecar-delivery"] == received.json["id"]
        assert received.headers["content-type"] == "application/json"
        assert received.headers["x-cablecar-attempt"] == "1"
        assert errors_of(component("WebhookDelivery"), received.json) == []
    body = finished.json
    assert body["type"] == "game.finished" and body["game"]["status"] == "finished"
    export = client.get(f"/v1/games/{game['id']}/export").get_json()
    assert body["game"]["result"] == export["result"]
    log = wait_for(
        lambda: (
            [d for d in deliveries(client, org, hook["id"]) if d["state"] == "delivered"][1:]
            and deliveries(client, org, hook["id"])
        )
    )
    assert {d["event"] for d in log} == {"game.started", "game.finished"}
    for d in log:
        assert (d["state"], d["attempts"], d["last_status_code"], d["next_attempt_at"]) == (
            "delivered",
            1,
            200,
            None,
        )
        assert d["history"][0]["status_code"] == 200 and d["delivered_at"]
    assert [d["payload"] for d in log if d["event"] == "game.finished"] == [body]


def test_a_failed_attempt_is_retried_with_the_same_signed_body(
    client: FlaskClient, receiver: Receiver
) -> None:
    receiver.script = [500]
    org = organiser(client)
    hook = webhook(client, org, receiver.url, events=["game.started"])
    batch(client, org)
    first, second = wait_for(lambda: len(receiver.requests) >= 2 and receiver.requests)
    assert first.body == second.body and verify(hook["secret"], second)
    assert first.headers["x-cablecar-delivery"] == second.headers["x-cablecar-delivery"]
    assert (first.headers["x-cablecar-attempt"], second.headers["x-cablecar-attempt"]) == ("1", "2")
    [d] = wait_for(lambda: [d for d in deliveries(client, org, hook["id"]) if d["state"] == "delivered"])
    assert d["attempts"] == 2 and [a["status_code"] for a in d["history"]] == [500, 200]
    assert d["history"][0]["error"] == "HTTP 500"
    time.sleep(0.3)  # several backoff periods: nothing more is sent once delivered
    assert len(receiver.requests) == 2


def test_a_delivery_is_given_up_after_the_last_attempt(client: FlaskClient, receiver: Receiver) -> None:
    receiver.default = 503
    org = organiser(client)
    hook = webhook(client, org, receiver.url, events=["game.started"])
    batch(client, org)
    [d] = wait_for(lambda: [d for d in deliveries(client, org, hook["id"]) if d["state"] == "failed"])
    assert d["attempts"] == MAX_ATTEMPTS and d["next_attempt_at"] is None
    assert [a["status_code"] for a in d["history"]] == [503, 503, 503]
    time.sleep(0.3)
    assert len(receiver.requests) == 3


def test_an_unreachable_receiver_is_an_error_in_the_log(client: FlaskClient, receiver: Receiver) -> None:
    org = organiser(client)
    hook = webhook(client, org, "http://127.0.0.1:9/nobody-listens", events=["game.started"])
    batch(client, org)
    [d] = wait_for(lambda: [d for d in deliveries(client, org, hook["id"]) if d["attempts"] >= 1])
    assert d["history"][0]["status_code"] is None and "refused" in d["history"][0]["error"].lower()


def test_actions_never_wait_for_a_receiver(client: FlaskClient, receiver: Receiver) -> None:
    receiver.gate.clear()  # the receiver hangs until released
    org = organiser(client)
    webhook(client, org, receiver.url)
    game = batch(client, org)["games"][0]
    t0 = time.monotonic()
    play_to_end(client, game)  # its game.started delivery is stuck in the receiver meanwhile
    assert time.monotonic() - t0 < 5
    assert receiver.requests == []
    receiver.gate.set()
    wait_for(lambda: receiver.of("game.finished"))


def test_webhooks_cover_only_what_they_subscribe_to(client: FlaskClient, receiver: Receiver) -> None:
    org = organiser(client)
    early = batch(client, org, seed="before")  # created before any webhook: never delivered
    first = batch(client, org, seed="first")
    second = batch(client, org, seed="second")
    only_first = webhook(client, org, receiver.url + "/first", batch=first["id"], events=["game.finished"])
    everything = webhook(client, org, receiver.url + "/all")
    other = organiser(client, "someone else")
    webhook(client, other, receiver.url + "/other")
    resp = client.post(
        "/v1/games", json={"type": "ttr-sf", "players": [{"name": "a"}, {"name": "b"}]}, headers=org
    )
    own_game = resp.get_json()
    anonymous = create(client, seed="nobody's")
    for game in (first["games"][0], second["games"][0], own_game, anonymous):
        play_to_end(client, game)
    wait_for(lambda: len(receiver.of("game.finished")) >= 4)
    time.sleep(0.2)
    seen = {
        (r.json["type"], r.json["game"]["id"], r.headers["x-cablecar-signature"]) for r in receiver.requests
    }
    by_hook: dict[str, set[tuple[str, str]]] = {}
    for r in receiver.requests:
        hook = (
            everything
            if verify(everything["secret"], r)
            else only_first
            if verify(only_first["secret"], r)
            else None
        )
        assert hook is not None, "a delivery for the other organiser or an unknown webhook"
        by_hook.setdefault(hook["id"], set()).add((r.json["type"], r.json["game"]["id"]))
    assert by_hook[only_first["id"]] == {("game.finished", first["games"][0]["id"])}
    assert by_hook[everything["id"]] == {
        ("game.started", own_game["id"]),
        ("game.finished", first["games"][0]["id"]),
        ("game.finished", second["games"][0]["id"]),
        ("game.finished", own_game["id"]),
    }
    assert early["games"][0]["id"] not in {game_id for _, game_id, _ in seen}
    assert anonymous["id"] not in {game_id for _, game_id, _ in seen}
    assert len(seen) == len(receiver.requests)  # nothing twice


def test_a_deleted_webhook_gets_nothing_more(client: FlaskClient, receiver: Receiver) -> None:
    org = organiser(client)
    hook = webhook(client, org, receiver.url)
    game = batch(client, org)["games"][0]
    wait_for(lambda: [d for d in deliveries(client, org, hook["id"]) if d["state"] == "delivered"])
    deleted = client.delete(f"/v1/webhooks/{hook['id']}", headers=org)
    assert deleted.status_code == 204 and not deleted.data
    assert client.get(f"/v1/webhooks/{hook['id']}", headers=org).status_code == 404
    assert client.delete(f"/v1/webhooks/{hook['id']}", headers=org).status_code == 404
    assert client.get("/v1/webhooks", headers=org).get_json() == {"webhooks": []}
    play_to_end(client, game)
    time.sleep(0.3)
    assert [r.json["type"] for r in receiver.requests] == ["game.started"]
    # the log stays readable
    assert [d["event"] for d in deliveries(client, org, hook["id"])] == ["game.started"]


def test_nothing_is_lost_when_the_service_stops_before_delivering(tmp_path: Path, receiver: Receiver) -> None:
    """The game finishes while no dispatcher runs (first app), or after a
    dispatcher recorded the delivery but before it was sent; a new app on the
    same SQLite file delivers it."""
    quiet = fast(tmp_path, webhooks=False)
    first = create_app(quiet)
    client = first.test_client()
    org = organiser(client)
    hook = webhook(client, org, receiver.url, events=["game.finished"])
    games = batch(client, org, tables=2)["games"]
    play_to_end(client, games[0])
    # a dispatcher records the first game's delivery (the cursor moves past it) and dies before sending
    rt = first.extensions["cablecar"]
    stores = rt.stores
    read, created = WebhookDispatcher(stores.deliveries, stores.tournaments, stores.log, stores.database, rt.queries,
                                      rt.service.secrets.webhooks, DispatchPolicy()).scan()
    assert read > 0 and created == 1
    play_to_end(client, games[1])  # and this one finishes with no dispatcher at all
    rt.stores.close()
    assert receiver.requests == []

    second = create_app(replace(quiet, webhooks=True))
    start_dispatcher(second)
    try:
        delivered = wait_for(lambda: len(receiver.of("game.finished")) >= 2 and receiver.of("game.finished"))
        assert {r.json["game"]["id"] for r in delivered} == {g["id"] for g in games}
        assert all(verify(hook["secret"], r) for r in delivered)
        time.sleep(0.2)
        assert len(receiver.requests) == 2
    finally:
        stop_dispatcher(second, timeout=10)
        second.extensions["cablecar"].stores.close()


def test_several_dispatchers_send_each_delivery_once(tmp_path: Path, receiver: Receiver) -> None:
    # a deadline a loaded machine does not reach: a late answer would have its delivery sent again
    apps: list[Flask] = [create_app(fast(tmp_path, webhook_timeout_seconds=30.0)) for _ in range(3)]
    for app in apps:
        start_dispatcher(app)
    try:
        client = apps[0].test_client()
        org = organiser(client)
        hook = webhook(client, org, receiver.url, events=["game.started"])
        for i in range(3):
            batch(client, org, tables=4, seed=f"many-{i}")
        made = wait_for(lambda: all_delivered(apps[0].extensions["cablecar"].stores, [hook["id"]], 12), 30)
        assert_sent_once_per_attempt(receiver.requests, made)
        assert len({r.json["game"]["id"] for r in receiver.requests}) == 12
    finally:
        for app in apps:
            stop_dispatcher(app, timeout=10)
            app.extensions["cablecar"].stores.close()


@pytest.mark.postgres
def test_dispatchers_on_postgresql_share_the_work(tmp_path: Path, receiver: Receiver) -> None:
    """Two service instances on one PostgreSQL database (two hosts, say): every
    delivery is made once, by one of them."""
    from events.factory import postgres_stores
    from tests.contract.conftest import create_database, drop_database, postgres_admin_url

    admin = postgres_admin_url()
    url = create_database(admin, "cc_webhooks")
    apps: list[Flask] = []
    try:
        from events.integrity.signing import Signer
        from service.adapters.signing_keys import ServerKeys

        keys = ServerKeys(Signer.generate())  # the two servers share their signing key and secret, as hosts do
        apps = [create_app(fast(tmp_path / str(i), secret_key="the hosts' shared secret, 32 bytes or more"),
                           stores=postgres_stores(url, signer=keys.signer), signing_keys=keys) for i in range(2)]
        for app in apps:
            start_dispatcher(app)
        client = apps[1].test_client()
        org = organiser(client)
        hook = webhook(client, org, receiver.url)
        for i in range(2):
            batch(client, org, tables=4, seed=f"pg-{i}")
        received = wait_for(lambda: len(receiver.requests) >= 8 and receiver.requests)
        time.sleep(0.3)
        ids = [r.headers["x-cablecar-delivery"] for r in receiver.requests]
        assert len(ids) == len(set(ids)) == 8 and all(verify(hook["secret"], r) for r in received)
        log = deliveries(client, org, hook["id"])
        assert len(log) == 8 and {d["state"] for d in log} == {"delivered"}
    finally:
        for app in apps:
            stop_dispatcher(app, timeout=10)
            app.extensions["cablecar"].stores.close()
        drop_database(admin, url)


def test_the_dispatcher_stops_with_its_store(tmp_path: Path) -> None:
    app = create_app(fast(tmp_path))
    assert WEBHOOKS_EXTENSION not in app.extensions  # building an app sends nothing
    dispatcher = start_dispatcher(app)
    assert dispatcher is not None and dispatcher.running and app.extensions[WEBHOOKS_EXTENSION] is dispatcher
    app.extensions["cablecar"].stores.close()
    wait_for(lambda: not dispatcher.running, timeout=5)
    off = create_app(Settings(data_dir=str(tmp_path / "off"), webhooks=False))
    assert start_dispatcher(off) is None
    assert WEBHOOKS_EXTENSION not in off.extensions
    off.extensions["cablecar"].stores.close()


def test_stopping_the_dispatcher_waits_for_its_thread(tmp_path: Path) -> None:
    app = create_app(fast(tmp_path))
    dispatcher = start_dispatcher(app)
    assert dispatcher is not None and dispatcher.running
    stop_dispatcher(app, timeout=5)
    assert not dispatcher.running and WEBHOOKS_EXTENSION not in app.extensions
    stop_dispatcher(app, timeout=5)  # nothing left to stop
    app.extensions["cablecar"].stores.close()


def test_the_dedicated_dispatcher_process_delivers(tmp_path: Path, receiver: Receiver) -> None:
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False, webhook_private_addresses=True))
    client = app.test_client()
    org = organiser(client)
    hook = webhook(client, org, receiver.url, events=["game.finished"])
    game = batch(client, org)["games"][0]
    play_to_end(client, game)
    app.extensions["cablecar"].stores.close()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "CABLECAR_DATA_DIR": str(tmp_path),
        "CABLECAR_WEBHOOK_PRIVATE_ADDRESSES": "true",
        "CABLECAR_WEBHOOK_POLL_SECONDS": "0.05",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "cablecar.cli", "webhooks", "run"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        [received] = wait_for(lambda: receiver.of("game.finished"), timeout=20)
        assert verify(hook["secret"], received) and received.json["game"]["id"] == game["id"]
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "delivering webhooks" in out


def _post(url: str, body: dict[str, Any], headers: Mapping[str, str] | None = None) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json", **(headers or {})}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as resp:
        return json.loads(resp.read())


SERVERS = {
    "cablecar serve": ["-m", "cablecar.cli", "serve", "--host", "127.0.0.1", "--port", "{port}", "--workers", "1"],
    "gunicorn": ["-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "--bind", "127.0.0.1:{port}",
                 "--workers", "2", "service.serving.wsgi:app"],
}


@pytest.mark.parametrize("command", SERVERS)
def test_server_workers_run_the_dispatcher_and_stop_it_on_exit(
    tmp_path: Path, receiver: Receiver, command: str
) -> None:
    """``cablecar serve`` (embedded SQLite store) and plain gunicorn with the
    production configuration: each worker delivers, and a SIGTERM stops the
    workers and their dispatchers cleanly."""
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "PYTHONPATH": str(ROOT),
        "CABLECAR_DATA_DIR": str(tmp_path),
        "CABLECAR_WEBHOOK_PRIVATE_ADDRESSES": "true",
        "CABLECAR_WEBHOOK_POLL_SECONDS": "0.05",
    }
    log = tmp_path / "server.log"
    argv = [sys.executable, *(a.format(port=port) for a in SERVERS[command])]
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(base + "/v1/health")
        org = auth(_post(base + "/v1/organisers", {"name": "Serve Open"})["token"])
        hook = _post(base + "/v1/webhooks", {"url": receiver.url, "events": ["game.started"]}, org)
        tables = [{"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": f"serve-{i}"} for i in range(3)]
        created = _post(base + "/v1/batches", {"type": "ttr-sf", "tables": tables}, org)
        received = wait_for(lambda: len(receiver.requests) >= 3 and receiver.requests, timeout=20)
        assert {r.json["game"]["id"] for r in received} == {g["id"] for g in created["games"]}
        assert all(verify(hook["secret"], r) for r in received)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    output = log.read_text()
    assert proc.returncode == 0, output
    assert "Traceback" not in output, output
    assert len(receiver.requests) == 3, output  # several workers, one delivery each


# ------------------------------------------------------------- the pieces
def test_retries_follow_the_backoff_schedule_exactly(tmp_path: Path) -> None:
    """A dispatcher on a pinned clock with a scripted receiver: attempts at
    T, T+10 s, T+10+15 s (the 20 s delay capped at 15), then given up."""
    app = create_app(fast(tmp_path, webhooks=False))
    try:
        client = app.test_client()
        org = organiser(client)
        hook = webhook(client, org, "http://receiver.invalid/hook", events=["game.started"])
        batch(client, org)
        now = [datetime.now(UTC)]
        start = now[0]
        sent: list[Mapping[str, str]] = []

        def refuse(url: str, body: bytes, headers: Mapping[str, str], timeout: float) -> SendResult:
            assert url == "http://receiver.invalid/hook" and signature_matches(
                hook["secret"], body, headers["X-CableCar-Signature"]
            )
            sent.append(headers)
            return SendResult(500, "HTTP 500", 3)

        rt = app.extensions["cablecar"]
        policy = DispatchPolicy(max_attempts=3, first_retry_seconds=10, max_retry_seconds=15)
        stores = rt.stores
        dispatcher = WebhookDispatcher(stores.deliveries, stores.tournaments, stores.log, stores.database, rt.queries,
                                       rt.service.secrets.webhooks, policy, sender=refuse, clock=lambda: now[0])
        assert dispatcher.run_once() == PassReport(events_read=8, deliveries_created=1, attempts=1)
        schedule = []
        for step in (10, 15):
            assert dispatcher.deliver_due() == 0  # not due yet
            [d] = deliveries(client, org, hook["id"])
            schedule.append(d["next_attempt_at"])
            now[0] += timedelta(seconds=step)
            assert dispatcher.deliver_due() == 1
        assert schedule == [
            format_timestamp(start + timedelta(seconds=10)),
            format_timestamp(start + timedelta(seconds=25)),
        ]
        [d] = deliveries(client, org, hook["id"])
        assert (d["state"], d["attempts"], d["next_attempt_at"], d["last_status_code"]) == (
            "failed",
            3,
            None,
            500,
        )
        assert [h["X-CableCar-Attempt"] for h in sent] == ["1", "2", "3"]
        now[0] += timedelta(days=1)
        assert dispatcher.run_once().attempts == 0
    finally:
        app.extensions["cablecar"].stores.close()


def test_retry_delays_double_up_to_the_cap() -> None:
    policy = DispatchPolicy(first_retry_seconds=10, max_retry_seconds=60)
    assert [policy.retry_delay(n) for n in range(1, 6)] == [10, 20, 40, 60, 60]
    assert policy.lease_seconds > policy.claim_batch * policy.timeout_seconds
    for bad in ({"poll_seconds": 0}, {"max_attempts": 0}, {"timeout_seconds": -1}, {"claim_batch": 0}):
        with pytest.raises(ValueError):
            DispatchPolicy(**bad)  # type: ignore[arg-type]


def test_signatures_are_hmac_sha256_of_the_raw_body() -> None:
    body = b'{"id":"d1","type":"game.finished"}'
    assert sign("k", body) == "sha256=" + hmac.new(b"k", body, hashlib.sha256).hexdigest()
    assert signature_matches("k", body, sign("k", body))
    assert not signature_matches("k", body + b" ", sign("k", body))
    assert not signature_matches("k", body, None)


def test_sending_reports_failures_instead_of_raising(receiver: Receiver) -> None:
    refused = http_send("http://127.0.0.1:9/", b"{}", {}, 1.0)
    assert refused.status_code is None and refused.error and not refused.ok
    receiver.script = [302]
    redirected = http_send(receiver.url, b"{}", {"Content-Type": "application/json"}, 2.0)
    assert (redirected.status_code, redirected.ok) == (302, False)
    fine = http_send(receiver.url, b"{}", {"Content-Type": "application/json"}, 2.0)
    assert fine == SendResult(200, None, fine.duration_ms) and fine.ok


# ------------------------------------------------------ public addresses only
@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8080/h", "http://localhost/h", "http://api.localhost/h", "http://10.1.2.3/h",
    "http://192.168.0.10/h", "http://169.254.169.254/latest/meta-data", "http://[::1]/h",
    "http://100.64.0.1/h", "http://0.0.0.0/h", "http://224.0.0.1/h",
])
def test_webhooks_to_private_addresses_are_refused_by_default(tmp_path: Path, url: str) -> None:
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False))
    client = app.test_client()
    org = organiser(client)
    resp = client.post("/v1/webhooks", json={"url": url}, headers=org)
    assert resp.status_code == 400, resp.get_json()
    assert resp.get_json()["code"] == "invalid_request" and "public" in resp.get_json()["detail"]
    assert client.get("/v1/webhooks", headers=org).get_json()["webhooks"] == []
    # a public address or a name is accepted (names are checked when resolved, before each attempt)
    for fine in ("https://93.184.216.34/h", "https://hooks.example.org/h"):
        assert client.post("/v1/webhooks", json={"url": fine}, headers=org).status_code == 201
    app.extensions["cablecar"].stores.close()


def test_which_addresses_are_public() -> None:
    for private in ("127.0.0.1", "::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "fe80::1%eth0", "fd00::1",
                    "172.16.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "255.255.255.255", "224.0.0.1"):
        assert not_public(private), private
    for public in ("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "8.8.8.8"):
        assert not not_public(public), public


def test_a_name_resolving_to_a_private_address_gets_nothing(tmp_path: Path, receiver: Receiver) -> None:
    """Registered while allowed (or through a name that resolved elsewhere):
    every attempt resolves the name again and refuses a private address."""
    app = create_app(fast(tmp_path, webhooks=False))
    client = app.test_client()
    org = organiser(client)
    local_name = receiver.url.replace("127.0.0.1", "localhost")
    hook = webhook(client, org, local_name, events=["game.started"])
    batch(client, org)
    rt = app.extensions["cablecar"]
    stores = rt.stores
    strict = WebhookDispatcher(stores.deliveries, stores.tournaments, stores.log, stores.database, rt.queries,
                               rt.service.secrets.webhooks, DispatchPolicy(private_addresses=False))
    strict.run_once()
    deliveries = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers=org).get_json()["deliveries"]
    assert deliveries and all(d["attempts"] == 1 for d in deliveries)
    assert all("not a public address" in (d["last_error"] or "") for d in deliveries)
    assert receiver.requests == []
    refused = http_send(receiver.url, b"{}", {}, 1.0, allow_private=False)
    assert refused.status_code is None and "not a public address" in (refused.error or "")
    assert receiver.requests == []
    rt.stores.close()


def test_https_is_verified_against_the_host_name_after_pinning_the_address(tmp_path: Path) -> None:
    """The connection goes to the address resolved once, and TLS still checks
    the certificate against the URL's name (a self-signed one fails)."""
    import ssl
    import subprocess
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    server = HTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.handle_request, daemon=True)
    thread.start()
    try:
        sent = http_send(f"https://localhost:{server.server_address[1]}/h", b"{}", {}, 3.0)
    finally:
        thread.join(5)
        server.server_close()
    assert sent.status_code is None and "CERTIFICATE_VERIFY_FAILED" in (sent.error or ""), sent
