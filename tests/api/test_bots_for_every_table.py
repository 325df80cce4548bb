"""Bots for every table (issue 36): a bot seat is accepted only while a bot
runner is alive (else `503 bots_unavailable`, nothing created, and health
says so), anonymous creators have a bot-seat quota per address, and a runner
plays several games' turns at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import bots.runner as runner_module
from bots.runner import BotRunner
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth

BOTS = [{"name": "Ada"}, {"name": "Robo", "bot": "random"}]


def _create(client: FlaskClient, players: list[dict[str, Any]], **headers: str) -> Any:
    return client.post("/v1/games", json={"type": "ttr-sf", "players": players}, headers=headers)


def _runner(app: Flask, **kw: Any) -> BotRunner:
    rt = app.extensions["cablecar"]
    return BotRunner(rt.queries, rt.commands, rt.stores.bot_turns, rt.stores.deadlines, think_ms=5, **kw)


def test_without_a_live_runner_a_bot_seat_is_refused_and_nothing_is_written(app: Flask, client: FlaskClient) -> None:
    store = app.extensions["cablecar"].stores
    health = client.get("/v1/health")
    assert health.status_code == 200 and health.get_json()["status"] == "ok"  # bots down is not the server down
    assert health.get_json()["bots"] == {"runners": 0, "ok": False}
    refused = _create(client, BOTS)
    assert refused.status_code == 503, refused.get_json()
    problem = refused.get_json()
    assert problem["code"] == "bots_unavailable" and "cablecar bots run" in problem["detail"]
    assert refused.headers["Retry-After"] == "10"
    organiser = client.post("/v1/organisers", json={"name": "Club"}).get_json()
    batch = {"type": "ttr-sf", "tables": [{"players": [{"name": "Cy"}, {"name": "Di"}]}, {"players": BOTS}]}
    refused_batch = client.post("/v1/batches", json=batch, headers=auth(organiser["token"]))
    assert refused_batch.status_code == 503 and refused_batch.get_json()["code"] == "bots_unavailable"
    assert not store.events.list_games(None, None, None, 100, None).games  # no game row, not even the batch's first table
    assert client.get("/v1/batches", headers=auth(organiser["token"])).get_json()["batches"] == []
    # a bad bot is still named as such first; a game of people is served as ever
    bad = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "deep-blue"}])
    assert bad.status_code == 422 and bad.get_json()["reason"] == "unknown_bot"
    assert _create(client, [{"name": "Ada"}, {"name": "Bo"}]).status_code == 201


def test_with_a_live_runner_a_bot_seat_is_accepted_until_it_stops(app: Flask, client: FlaskClient) -> None:
    runner = _runner(app)
    runner.beat(10)
    assert client.get("/v1/health").get_json()["bots"] == {"runners": 1, "ok": True}
    created = _create(client, BOTS)
    assert created.status_code == 201, created.get_json()
    assert runner.run_once() >= 1  # and it is played
    runner.beat(0)  # the runner stopped: bot seats are refused again
    assert _create(client, BOTS).status_code == 503
    assert client.get("/v1/health").get_json()["bots"]["runners"] == 0


def test_a_running_runner_keeps_its_heartbeat_and_ends_it_when_it_stops(app: Flask, client: FlaskClient) -> None:
    runner = _runner(app, interval=0.02, slots=2)
    thread = threading.Thread(target=runner.run)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while client.get("/v1/health").get_json()["bots"]["runners"] == 0:
            assert time.monotonic() < deadline, "the runner never beat"
            time.sleep(0.02)
        game = _create(client, [{"name": "Robo", "bot": "random"}, {"name": "Ann", "bot": "random"}]).get_json()
        while client.get(f"/v1/games/{game['id']}").get_json()["status"] != "finished":
            assert time.monotonic() < deadline + 60, "the bot game did not finish"
            time.sleep(0.05)
    finally:
        runner.stop()
        thread.join(30)
    assert not thread.is_alive()
    assert client.get("/v1/health").get_json()["bots"]["runners"] == 0


@pytest.fixture
def quota_app(tmp_path: Path) -> Any:
    app = create_app(Settings(data_dir=str(tmp_path), bot_seat_rate_limit="3/hour"))
    app.testing = True
    store = app.extensions["cablecar"].stores
    store.bot_turns.beat_bot_runner("test-runner", store.deadlines.database_time(), 3600)
    yield app
    store.close()


def test_anonymous_bot_seats_have_a_quota_per_address_and_organisers_do_not_spend_it(quota_app: Flask) -> None:
    client = quota_app.test_client()
    two = [{"name": "R1", "bot": "random"}, {"name": "R2", "bot": "random"}]
    assert _create(client, two).status_code == 201
    assert _create(client, [{"name": "Ada"}, {"name": "Bo"}]).status_code == 201  # no bot seat: not counted
    over = _create(client, two)  # 4 > 3
    assert over.status_code == 429 and over.get_json()["code"] == "rate_limited"
    assert "bot seats" in over.get_json()["detail"]
    assert len(quota_app.extensions["cablecar"].stores.events.list_games(None, None, None, 100, None).games) == 2
    other = client.post("/v1/games", json={"type": "ttr-sf", "players": two}, environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 201  # another address has its own quota
    organiser = client.post("/v1/organisers", json={"name": "Club"}, environ_base={"REMOTE_ADDR": "10.1.1.1"})
    token = organiser.get_json()["token"]
    for _ in range(3):  # an organiser's bot seats are its creation limit's, not this quota's
        assert _create(client, two, Authorization=f"Bearer {token}").status_code == 201


def test_a_runner_with_n_slots_plays_n_games_turns_at_once(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = _runner(app, slots=4, batch=4)
    runner.beat(60)
    for _ in range(4):
        assert _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "random"}], ).status_code == 201
    # every game's first turn is a person's: make each a bot's by seating the bot first
    spans: list[tuple[float, float]] = []
    lock = threading.Lock()
    inner = runner_module._strategy("random", "ttr-sf", 5)

    def slow(view: dict[str, Any], actions: list[dict[str, Any]], rng: Any) -> dict[str, Any]:
        start = time.monotonic()
        time.sleep(0.4)
        with lock:
            spans.append((start, time.monotonic()))
        return inner(view, actions, rng)

    monkeypatch.setattr(runner_module, "_strategy", lambda *_: slow)
    for _ in range(4):
        assert _create(client, [{"name": "Robo", "bot": "random"}, {"name": "Ada"}]).status_code == 201
    started = time.monotonic()
    assert runner.run_once() >= 4
    elapsed = time.monotonic() - started
    firsts = sorted(spans)[:4]
    # the four games' first moves overlap: each began before any of them ended
    assert max(s for s, _ in firsts) < min(e for _, e in firsts), spans
    assert elapsed < 4 * 0.4, elapsed  # one at a time would take 1.6 s at least
