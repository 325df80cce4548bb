"""Legal actions a bot can query: a uniform sample with its total, the
cable-car square filter, one cursor rule for every per-game list, and
integral JSON numbers accepted as integers."""

from __future__ import annotations

import random
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from bots.client import ApiProblem, Client, GameRun, play_turn, random_strategy
from domain.cablecar.actions import LayTiles
from tests.api.conftest import act, auth, create, view


def _get(client: FlaskClient, game: dict[str, Any], query: str, seat: int = 0) -> Any:
    return client.get(f"/v1/games/{game['id']}/legal-actions?{query}", headers=auth(game["seats"][seat]["token"]))


def test_a_sample_is_drawn_from_the_whole_list_and_repeats_with_its_seed(client: FlaskClient, app: Flask) -> None:
    game = create(client, "cable-car", 2, seed="sample")
    one = _get(client, game, "sample=10&seed=bot-1").get_json()
    everything = app.extensions["cablecar"].queries.load(game["id"])
    listed = [a.to_body() for a in app.extensions["cablecar"].queries.legal_actions(everything, 0)]
    assert one["total"] == len(listed) > 100_000 and len(one["actions"]) == 10 and one["next_cursor"] is None
    positions = [listed.index(a) for a in one["actions"]]
    assert positions == sorted(set(positions)) and positions[-1] > 1000  # not the first page
    assert _get(client, game, "sample=10&seed=bot-1").get_json() == one
    assert _get(client, game, "sample=10&seed=bot-2").get_json()["actions"] != one["actions"]
    assert _get(client, game, "sample=10").get_json()["actions"] != _get(client, game, "sample=10").get_json()["actions"]
    # every sampled action is accepted as it is
    assert act(client, game, 0, one["actions"][0]).status_code == 201
    # a short list: all of it
    small = create(client, "ttr-sf", 2)
    whole = _get(client, small, "limit=1000").get_json()
    assert _get(client, small, f"sample={whole['total'] + 5}&seed=x").get_json()["actions"] == whole["actions"]
    for bad in ("sample=0", "sample=10001", "sample=2&cursor=abc", "seed=x", "sample=x"):
        assert _get(client, game, bad).status_code == 400, bad


def test_the_square_filter_keeps_actions_whose_first_placement_is_there(client: FlaskClient, app: Flask) -> None:
    game = create(client, "cable-car", 2, seed="square")
    loaded = app.extensions["cablecar"].queries.load(game["id"])
    listed = app.extensions["cablecar"].queries.legal_actions(loaded, 0)
    expected = [a.to_body() for a in listed if isinstance(a, LayTiles) and a.placements[0].square == (1, 4)]
    got: list[dict[str, Any]] = []
    page = _get(client, game, "square=1,4&limit=500").get_json()
    got += page["actions"]
    while page["next_cursor"]:
        page = _get(client, game, f"square=1,4&limit=500&cursor={page['next_cursor']}").get_json()
        got += page["actions"]
    assert page["total"] == len(expected) > 0 and got == expected
    sampled = _get(client, game, "square=1,4&sample=5&seed=s").get_json()
    assert sampled["total"] == len(expected) and all(a in expected for a in sampled["actions"])
    # a cursor of the whole list does not continue the filtered one
    whole = _get(client, game, "limit=5").get_json()
    assert _get(client, game, f"square=1,4&cursor={whole['next_cursor']}").status_code == 400
    for bad in ("square=0,4", "square=1", "square=a,b", "square=1,4,5", "square=-1,4"):
        assert _get(client, game, bad).status_code == 400, bad
    assert _get(client, game, "square=40,40").get_json()["total"] == 0
    ttr = create(client, "ttr-sf", 2)
    refused = _get(client, ttr, "square=1,1")
    assert refused.status_code == 400 and refused.get_json()["code"] == "invalid_request"


def test_one_cursor_rule_stale_is_409_never_issued_is_400(client: FlaskClient) -> None:
    game = create(client, "cable-car", 2, seed="cursor")
    page = _get(client, game, "limit=5").get_json()
    cursor = page["next_cursor"]
    assert _get(client, game, f"limit=5&cursor={cursor}").status_code == 200
    for never in ("5", "abc", "YTE6MTo1OnN0dWZm", "a" * 401):
        answer = _get(client, game, f"cursor={never}")
        assert answer.status_code == 400 and answer.get_json()["code"] == "invalid_request", never
    other = create(client, "cable-car", 2, seed="cursor")
    assert _get(client, other, f"cursor={cursor}").status_code == 400  # another game's
    assert act(client, game, 0, page["actions"][0]).status_code == 201
    stale = _get(client, game, f"cursor={cursor}", seat=0)
    assert stale.status_code == 409 and stale.get_json()["code"] == "stale_cursor"
    assert stale.get_json()["current_version"] == view(client, game)["version"]
    # the event log only grows: an issued cursor stays good, one beyond the log was never issued
    events = client.get(f"/v1/games/{game['id']}/events?limit=1").get_json()
    assert client.get(f"/v1/games/{game['id']}/events?cursor={events['next_cursor']}").status_code == 200
    beyond = client.get(f"/v1/games/{game['id']}/events?cursor=99999")
    assert beyond.status_code == 400 and beyond.get_json()["code"] == "invalid_request"


def test_integral_json_numbers_are_integers(client: FlaskClient) -> None:
    body = {"type": "cable-car", "players": [{"name": "A"}, {"name": "B"}], "start_seat": 1.0,
            "time_control": {"kind": "per_turn", "seconds": 60.0}}
    created = client.post("/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    state = view(client, game)
    assert state["active_seats"] == [1] and state["time_control"]["seconds"] == 60
    first = _get(client, game, "limit=1", seat=1).get_json()["actions"][0]
    placements = [{**p, "row": float(p["row"]), "rotation": float(p["rotation"])} for p in first["placements"]]
    sent = act(client, game, 1, {**first, "placements": placements, "expected_version": float(state["version"])})
    assert sent.status_code == 201, sent.get_json()
    for bad in ({"start_seat": 1.5}, {"start_seat": True}, {"start_seat": "1"}):
        assert client.post("/v1/games", json={**body, **bad}).status_code == 400, bad
    half = act(client, game, 0, {"type": "roll", "expected_version": 2.5})
    assert half.status_code == 400


class _InProcess(Client):
    """The reference bot's client, talking to the Flask test client."""

    def __init__(self, flask: FlaskClient) -> None:
        self.flask = flask
        self.paths: list[str] = []

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                headers: dict[str, str] | None = None) -> Any:
        self.paths.append(path)
        sent = {**(headers or {}), **({"Authorization": f"Bearer {token}"} if token else {})}
        answer = self.flask.open(path, method=method, json=body, headers=sent)
        if answer.status_code >= 400:
            raise ApiProblem(answer.status_code, answer.get_json())
        return answer.get_json()


def test_the_reference_bot_chooses_among_the_whole_list_not_the_first_page(client: FlaskClient, app: Flask) -> None:
    game = create(client, "cable-car", 2, seed="bot-sample")
    api = _InProcess(client)
    run = GameRun(game["id"], "cable-car", [s["token"] for s in game["seats"]])
    first_page = _get(client, game, "limit=1000").get_json()["actions"]
    assert play_turn(api, run, 0, random_strategy, random.Random(3))
    assert any("sample=" in p for p in api.paths)
    laid = client.get(f"/v1/games/{game['id']}/events?limit=100").get_json()["events"]
    placements = next(e["payload"]["placements"] for e in laid if e["type"] == "tiles_laid")
    sent = [{k: p[k] for k in ("tile", "row", "col", "rotation")} for p in placements]
    assert {"type": "lay_tiles", "placements": sent} not in first_page  # seeded: the same draw every run
