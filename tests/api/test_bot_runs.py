"""The bot runner in process, on the embedded store: what a bot sees (its
seat's view as a client gets it, nothing more), a move refused when the game
moved on and decided again, the index that finds waiting games, and time
controls (a bot seat times out like anyone when no runner is alive; a live
runner plays before its clock runs out)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import bots.runner as runner_module
from bots.runner import BotRunner
from events.factory import sqlite_stores
from events.records import StaleVersion
from service.adapters.cache import InProcessCache
from service.api.app import create_app
from service.config import Settings
from service.errors import Forbidden
from service.usecases.commands import ActionRequest
from tests.api.conftest import auth

#: a bot runner is alive (its heartbeat): the server accepts bot seats
pytestmark = pytest.mark.usefixtures("bots_alive")


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(tmp_path: Path, clock: FakeClock) -> Iterator[Flask]:
    store = sqlite_stores(str(tmp_path / "bots.sqlite3"), clock=clock)
    app = create_app(Settings(data_dir=str(tmp_path), open_organisers=True), stores=store, cache=InProcessCache(),
                     clock=clock)
    app.testing = True
    yield app
    store.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def _runner(app: Flask) -> BotRunner:
    rt = app.extensions["cablecar"]
    return BotRunner(rt.queries, rt.commands, rt.stores.bot_turns, rt.stores.deadlines, think_ms=5)


def _create(client: FlaskClient, players: list[dict[str, Any]], game_type: str = "ttr-sf", **extra: Any) -> Any:
    resp = client.post("/v1/games", json={"type": game_type, "players": players, **extra})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


class Spy:
    """A strategy that records what it is given (and may do something first)."""

    def __init__(self, name: str, before: Any = None) -> None:
        self.inner = runner_module._strategy(name, "ttr-sf", 5)
        self.seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self.before = before

    def __call__(self, view: dict[str, Any], actions: list[dict[str, Any]], rng: Any) -> dict[str, Any]:
        self.seen.append((view, actions))
        if self.before is not None:
            before, self.before = self.before, None
            before()
        return self.inner(view, actions, rng)


def test_a_bot_sees_its_seats_view_as_a_client_gets_it_and_nothing_else(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "planner"}], seed="spy")
    spy = Spy("planner")
    monkeypatch.setattr(runner_module, "_strategy", lambda *_: spy)
    assert _runner(app).run_once() >= 1
    view, actions = spy.seen[0]
    # plain JSON, as a client decodes it: no object of the server's reaches the strategy
    assert json.loads(json.dumps(view)) == view and json.loads(json.dumps(actions)) == actions
    assert view["me"]["seat"] == 1 and view["players"][1]["bot"] == "planner"
    # everything but `me` is what a spectator is shown at that version; `me` is the seat's own
    spectator = client.get(f"/v1/games/{game['id']}?at={view['version']}").get_json()
    assert {k: v for k, v in view.items() if k != "me"} == spectator
    person = client.get(f"/v1/games/{game['id']}?at={view['version']}",
                        headers=auth(game["seats"][0]["token"])).get_json()
    assert person["me"]["seat"] == 0 and view["me"] != person["me"]
    assert not any("hand" in p or "tickets" in p for p in view["players"])  # others' cards stay hidden
    # its legal actions are the seat's own, as the seat's client would list them
    assert {a["type"] for a in actions} <= {"keep_tickets", "place_souvenir_stack"}


def test_a_bot_move_refused_for_a_stale_version_is_decided_again(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "greedy"}], seed="stale")
    token = game["seats"][0]["token"]

    def person_moves_first() -> None:  # setup choices are simultaneous: the person gets in first
        legal = client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(token)).get_json()["actions"]
        assert client.post(f"/v1/games/{game['id']}/actions", json=legal[0], headers=auth(token)).status_code == 201

    spy = Spy("greedy", before=person_moves_first)
    monkeypatch.setattr(runner_module, "_strategy", lambda *_: spy)
    runner = _runner(app)
    runner.run_once()
    assert runner.stats.conflicts == 1 and runner.stats.moves == 0
    assert runner.run_once() >= 1 and runner.stats.moves >= 1  # looked again, at the new version
    assert spy.seen[1][0]["version"] > spy.seen[0][0]["version"]
    events = client.get(f"/v1/games/{game['id']}/events").get_json()["events"]
    assert [e["seat"] for e in events if e["seat"] is not None][:2] == [0, 1]


def test_nobody_but_a_bot_seat_is_played_by_the_runner(app: Flask, client: FlaskClient) -> None:
    game = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "greedy"}], seed="person")
    commands = app.extensions["cablecar"].commands
    with pytest.raises(Forbidden):
        commands.act_for_bot(game["id"], 0, ActionRequest(None, {"type": "draw_tickets"}))
    with pytest.raises(StaleVersion):
        commands.act_for_bot(game["id"], 1, ActionRequest(None, {"type": "draw_tickets"}, expected_version=1))


def test_a_game_of_people_is_never_claimed(app: Flask, client: FlaskClient) -> None:
    _create(client, [{"name": "Ada"}, {"name": "Bo"}], seed="people")
    runner = _runner(app)
    assert runner.run_once() == 0 and runner.stats.claims == 0


def test_bots_play_a_game_to_the_end_within_a_per_turn_clock(app: Flask, client: FlaskClient,
                                                             clock: FakeClock) -> None:
    game = _create(client, [{"name": "Ada", "bot": "planner"}, {"name": "Bo", "bot": "random"},
                            {"name": "Cy", "bot": "greedy"}], "cable-car",
                   time_control={"kind": "per_turn", "seconds": 1})
    runner = _runner(app)
    for _ in range(2000):
        clock.advance(0.5)  # the runner looks twice per deadline
        runner.run_once()
        v = client.get(f"/v1/games/{game['id']}").get_json()
        if v["status"] == "finished":
            break
    assert v["status"] == "finished", v["status"]
    assert [p["standing"] for p in v["players"]] == ["in", "in", "in"]
    assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"]


def test_a_bot_seat_times_out_when_no_runner_plays_it(client: FlaskClient, clock: FakeClock) -> None:
    game = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "planner"}], "cable-car",
                   time_control={"kind": "per_turn", "seconds": 5}, start_seat=1)
    clock.advance(6)
    v = client.get(f"/v1/games/{game['id']}").get_json()
    assert v["players"][1]["standing"] == "timed_out" and v["players"][1]["bot"] == "planner"
    assert v["status"] == "finished" and v["result"]["winners"] == [0]
