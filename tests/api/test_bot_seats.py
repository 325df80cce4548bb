"""Bot seats at creation: the player entry's ``bot``, the null token, the
views' ``players[i].bot``, ``GET /v1/game-types``'s ``bots`` and refusals."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.conftest import auth

#: a bot runner is alive (its heartbeat): the server accepts bot seats
pytestmark = pytest.mark.usefixtures("bots_alive")


def _create(client: FlaskClient, players: list[dict[str, Any]], game_type: str = "ttr-sf", **extra: Any) -> Any:
    return client.post("/v1/games", json={"type": game_type, "players": players, "seed": "bots", **extra})


def test_game_types_list_each_types_bots(client: FlaskClient) -> None:
    types = {t["type"]: t for t in client.get("/v1/game-types").get_json()["types"]}
    assert types["ttr-sf"]["bots"] == ["random", "greedy", "planner", "mcts"]
    assert types["cable-car"]["bots"] == ["random", "greedy", "planner"]


def test_a_bot_seat_has_no_token_and_views_name_its_bot(client: FlaskClient) -> None:
    resp = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "planner"}, {"name": "Max", "bot": "mcts"}])
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    seats = game["seats"]
    assert seats[0]["token"].startswith("st_") and seats[0]["bot"] is None
    assert seats[1]["token"] is None and seats[1]["bot"] == "planner"
    assert seats[2]["token"] is None and seats[2]["bot"] == "mcts"
    for headers in ({}, auth(seats[0]["token"])):
        players = client.get(f"/v1/games/{game['id']}", headers=headers).get_json()["players"]
        assert [p["bot"] for p in players] == [None, "planner", "mcts"]
    listed = client.get("/v1/games").get_json()["games"][0]
    assert [p["bot"] for p in listed["players"]] == [None, "planner", "mcts"]


def test_a_game_of_people_shows_null_bots(client: FlaskClient) -> None:
    game = _create(client, [{"name": "Ada"}, {"name": "Bo"}]).get_json()
    assert [s["bot"] for s in game["seats"]] == [None, None]
    players = client.get(f"/v1/games/{game['id']}").get_json()["players"]
    assert [p["bot"] for p in players] == [None, None]


def test_an_unknown_bot_is_refused_and_nothing_is_created(client: FlaskClient) -> None:
    for players, game_type in (
        ([{"name": "Ada"}, {"name": "Robo", "bot": "deep-blue"}], "ttr-sf"),
        ([{"name": "Ada"}, {"name": "Robo", "bot": "mcts"}], "cable-car"),  # mcts plays ttr-sf only
    ):
        resp = _create(client, players, game_type)
        assert resp.status_code == 422, resp.get_json()
        problem = resp.get_json()
        assert problem["code"] == "invalid_config" and problem["reason"] == "unknown_bot"
        assert "players[1]" in problem["detail"]
    for bad in ("", 7, ["planner"]):
        resp = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": bad}])
        assert resp.status_code == 400 and resp.get_json()["code"] == "invalid_request"
    assert client.get("/v1/games").get_json()["games"] == []


def test_nobody_can_act_for_a_bot_seat(client: FlaskClient) -> None:
    game = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "random"}], host_token_unused=None)
    assert game.status_code == 400  # unknown fields are refused as ever
    game = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "random"}]).get_json()
    rotate = client.post(f"/v1/games/{game['id']}/seats/1/token", headers=auth(game["host_token"]))
    assert rotate.status_code == 422 and rotate.get_json()["reason"] == "bot_seat"
    # the person's token acts for the person's seat only
    legal = client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(game["seats"][0]["token"]))
    assert legal.status_code == 200


def test_bots_are_in_the_export_header(client: FlaskClient) -> None:
    game = _create(client, [{"name": "Ada"}, {"name": "Robo", "bot": "greedy"}]).get_json()
    cancelled = client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["host_token"]))
    assert cancelled.status_code == 200
    export = client.get(f"/v1/games/{game['id']}/export").get_json()
    assert export["game"]["bots"] == [None, "greedy"]
    assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"]


def test_a_batch_can_seat_bots(client: FlaskClient) -> None:
    organiser = client.post("/v1/organisers", json={"name": "Club"}).get_json()
    body = {"type": "ttr-sf", "tables": [
        {"players": [{"name": "Ada"}, {"name": "Bo"}]},
        {"players": [{"name": "Cy"}, {"name": "Robo", "bot": "planner"}]},
    ]}
    resp = client.post("/v1/batches", json=body, headers=auth(organiser["token"]))
    assert resp.status_code == 201, resp.get_json()
    tables = resp.get_json()["games"]
    assert [s["token"] is None for s in tables[1]["seats"]] == [False, True]
    assert tables[1]["seats"][1]["bot"] == "planner"
    bad = {"type": "ttr-sf", "tables": [{"players": [{"name": "Cy"}, {"name": "Robo", "bot": "nope"}]}]}
    refused = client.post("/v1/batches", json=bad, headers=auth(organiser["token"]))
    assert refused.status_code == 422 and refused.get_json()["reason"] == "unknown_bot"
