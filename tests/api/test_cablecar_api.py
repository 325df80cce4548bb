"""The cable-car game through the same API as ttr-sf."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain import registry
from domain.cablecar import GAME as CABLE_CAR
from domain.cablecar.actions import LayTiles
from domain.cablecar.pairs import PairTables
from domain.core import GameConfig, replay
from domain.registry import game_definition
from events.integrity.keyset import KeySet
from events.integrity.verify import verify_export
from tests.api.conftest import act, auth, create, legal, view
from tests.browser.ride_plan import plan_ride


def test_board_has_what_a_client_draws(client: FlaskClient) -> None:
    board = client.get("/v1/boards/cable-car").get_json()
    assert board["grid"]["rows"] == 12 and board["grid"]["cols"] == 12
    assert len(board["stops"]) == 12
    assert len(board["tiles"]) == 12 and sum(t["count"] if "count" in t else t["draw_pile"] + t["start_tiles"]
                                             for t in board["tiles"]) == 126
    assert len(board["lines"]) == 6


def test_player_counts(client: FlaskClient) -> None:
    for n in (2, 6):
        create(client, "cable-car", n)
    for n in (1, 7):
        resp = client.post("/v1/games", json={"type": "cable-car", "players": [{"name": str(i)} for i in range(n)]})
        assert resp.status_code in (400, 422)


def test_secret_cards_hidden_from_others(client: FlaskClient) -> None:
    game = create(client, "cable-car", 3, seed="cards")
    me = view(client, game, 0)["me"]
    assert me["line"] and me["route"]
    spectator = view(client, game)
    assert "me" not in spectator
    assert all(p["line"] is None for p in spectator["players"])
    other = view(client, game, 1)
    assert other["me"]["line"] is not None
    events = client.get(f"/v1/games/{game['id']}/events", headers=auth(game["seats"][1]["token"])).get_json()
    setup = events["events"][0]["payload"]
    assert setup["lines"][0] is None and setup["lines"][1] == other["me"]["line"]
    assert json.dumps(me["route"]) not in json.dumps(setup["routes"][0] if setup.get("routes") else None)


def test_pages_of_a_long_list_are_computed_once(client: FlaskClient, app: Flask,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    definition = game_definition("cable-car")
    calls: list[int] = []
    real = definition.legal_actions

    def counted(state: Any, seat: int) -> Any:
        calls.append(seat)
        return real(state, seat)

    monkeypatch.setitem(registry.GAMES, "cable-car", replace(definition, legal_actions=counted))
    game = create(client, "cable-car", 2, seed="memo")
    url = f"/v1/games/{game['id']}/legal-actions"
    token = auth(game["seats"][0]["token"])
    first = client.get(f"{url}?limit=100", headers=token).get_json()
    pages = [first]
    for _ in range(3):
        pages.append(client.get(f"{url}?limit=100&cursor={pages[-1]['next_cursor']}", headers=token).get_json())
    pages = pages[1:]
    assert len(calls) == 1
    seen = [a for p in [first, *pages] for a in p["actions"]]
    state = app.extensions["cablecar"].queries.load(game["id"]).state
    assert seen == [a.to_body() for a in real(state, 0)[:400]]
    assert {p["total"] for p in pages} == {first["total"]} and first["total"] > 2000
    assert len({json.dumps(a, sort_keys=True) for a in seen}) == 400
    # once the game moves on, the new version's list is computed afresh
    act(client, game, 0, seen[0])
    client.get(f"{url}?limit=5", headers=auth(game["seats"][1]["token"]))
    assert len(calls) == 2


def test_lay_tiles_paging_and_refusals(client: FlaskClient) -> None:
    game = create(client, "cable-car", 2, seed="lay")
    page = client.get(f"/v1/games/{game['id']}/legal-actions?limit=5",
                      headers=auth(game["seats"][0]["token"])).get_json()
    assert page["total"] > 1000 and page["next_cursor"] and len(page["actions"]) == 5
    page2 = client.get(f"/v1/games/{game['id']}/legal-actions?limit=5&cursor={page['next_cursor']}",
                       headers=auth(game["seats"][0]["token"])).get_json()
    assert page2["actions"] != page["actions"]
    off = act(client, game, 0, {"type": "lay_tiles", "placements": [
        {"tile": "straight", "row": 1, "col": 1, "rotation": 0},
        {"tile": "straight", "row": 1, "col": 2, "rotation": 0}]})
    assert off.status_code == 422 and off.get_json()["reason"] == "leads_off_board"
    assert act(client, game, 0, {"type": "roll"}).get_json()["reason"] == "not_riding"
    assert act(client, game, 1, {"type": "roll"}).status_code == 409
    bad_shape = act(client, game, 0, {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 0, "col": 1,
                                                                           "rotation": 0}]})
    assert bad_shape.status_code == 400
    before = view(client, game)["version"]
    ok = act(client, game, 0, page["actions"][0])
    assert ok.status_code == 201
    after = view(client, game)
    assert after["version"] > before and len(after["tiles"]) == 2
    assert after["active_seats"] == [1]


def test_cable_car_game_to_the_end_verifies(client: FlaskClient) -> None:
    game = create(client, "cable-car", 2, seed="whole")
    for _ in range(600):
        v = view(client, game)
        if v["status"] == "finished":
            break
        seat = v["active_seats"][0]
        actions = legal(client, game, seat)
        resp = act(client, game, seat, actions[0])
        assert resp.status_code == 201, resp.get_json()
    final = view(client, game)
    assert final["status"] == "finished" and "winners" in final["result"]
    assert all(p["line"] is not None for p in final["players"])  # revealed at the end
    export = client.get(f"/v1/games/{game['id']}/export").get_json()
    assert verify_export(export, KeySet.from_json(client.get("/v1/keys").get_json())).ok


def test_start_ride_path_shapes(client: FlaskClient) -> None:
    game = create(client, "cable-car", 2, seed="ride-shapes")
    with_loop = act(client, game, 0, {"type": "start_ride", "path": [[6, 1], "Ocean Beach", [7, 1]]})
    assert with_loop.status_code == 422  # well formed; the network is not complete yet
    assert with_loop.get_json()["code"] == "illegal_action"
    for bad in ([[0, 1]], [[1, 2, 3]], [True], [[1, "a"]], []):
        resp = act(client, game, 0, {"type": "start_ride", "path": bad})
        assert resp.status_code == 400, (bad, resp.get_json())


def test_a_due_ride_refuses_everything_but_starting_it_or_resigning(client: FlaskClient) -> None:
    """cable-car/4 over HTTP: a seat whose network is complete at the start of its turn is offered
    only start_ride (and resign); a lay, otherwise legal, gets 422 ride_due and writes nothing."""
    names = ["P0", "P1"]
    seed, moves = next((s, m) for s in (f"browser-ride-{i}" for i in range(10)) if (m := plan_ride(names, s)))
    game = create(client, "cable-car", 2, seed=seed, open_deal=True)
    state = replay(CABLE_CAR, CABLE_CAR.setup(GameConfig(tuple(names), seed, 0)))
    for seat, body in moves:
        assert act(client, game, seat, body).status_code == 201
        state = replay(CABLE_CAR, CABLE_CAR.decide(state, seat, CABLE_CAR.parse_action(body)), state)
    page = client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(game["seats"][0]["token"])).get_json()
    assert [a["type"] for a in page["actions"]] == ["start_ride", "start_ride", "resign"] and page["total"] == 3
    lay = LayTiles(next(PairTables(state.board, state.players[0].hand).pairs())).to_body()
    before = view(client, game)["version"]
    refused = act(client, game, 0, lay)
    assert refused.status_code == 422 and refused.get_json()["reason"] == "ride_due"
    assert act(client, game, 0, {"type": "roll"}).get_json()["reason"] == "ride_due"
    assert view(client, game)["version"] == before
    assert act(client, game, 0, {"type": "start_ride"}).status_code == 201
    assert view(client, game, 1)["players"][0]["riding"] is True
