"""Fixtures for API tests: a Flask test client on a fresh embedded store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.app import create_app
from service.config import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=str(tmp_path), sse_max_seconds=2, sse_heartbeat_seconds=1)


@pytest.fixture
def app(settings: Settings) -> Iterator[Flask]:
    app = create_app(settings)
    app.testing = True
    yield app
    app.extensions["cablecar"].stores.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def bots_alive(app: Flask) -> None:
    """A bot runner's heartbeat for the test's duration: the server accepts bot seats only while one is alive."""
    store = app.extensions["cablecar"].stores
    store.bot_turns.beat_bot_runner("test-runner", store.deadlines.database_time(), 3600)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, game_type: str = "ttr-sf", players: int = 2, seed: str | None = "api-test",
           start_seat: int = 0, open_deal: bool = False) -> dict[str, Any]:
    """A new game; ``open_deal`` deals from ``seed`` alone (tests that must know the deal)."""
    body: dict[str, Any] = {"type": game_type, "players": [{"name": f"P{i}"} for i in range(players)],
                            "start_seat": start_seat}
    if seed is not None:
        body["seed"] = seed
    if open_deal:
        body["open_deal"] = True
    resp = client.post("/v1/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def legal(client: FlaskClient, game: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    resp = client.get(f"/v1/games/{game['id']}/legal-actions?limit=200", headers=auth(game["seats"][seat]["token"]))
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()["actions"]


def act(client: FlaskClient, game: dict[str, Any], seat: int, action: dict[str, Any], **kw: Any) -> Any:
    return client.post(f"/v1/games/{game['id']}/actions", json=action,
                       headers={**auth(game["seats"][seat]["token"]), **kw.pop("headers", {})}, **kw)


def view(client: FlaskClient, game: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    headers = auth(game["seats"][seat]["token"]) if seat is not None else {}
    resp = client.get(f"/v1/games/{game['id']}", headers=headers)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def finish_setup(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """Make every setup choice (first legal option) until the game is playing."""
    for _ in range(50):
        v = view(client, game)
        if v["status"] != "setup":
            return v
        seat = v["active_seats"][0]
        actions = legal(client, game, seat)
        resp = act(client, game, seat, actions[0])
        assert resp.status_code == 201, resp.get_json()
    raise AssertionError("setup did not finish")


def play_to_end(client: FlaskClient, game: dict[str, Any], max_steps: int = 3000) -> dict[str, Any]:
    """Play every seat with the first legal action until the game ends."""
    for _ in range(max_steps):
        v = view(client, game)
        if v["status"] == "finished":
            return v
        seat = v["active_seats"][0]
        actions = legal(client, game, seat)
        # prefer claiming routes so games end quickly
        claims = [a for a in actions if a["type"] == "claim_route"]
        resp = act(client, game, seat, (claims or actions)[0])
        assert resp.status_code == 201, resp.get_json()
    raise AssertionError("game did not finish")
