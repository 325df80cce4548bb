"""The extension point: a game defined only under ``tests/`` (``stones``, see
:mod:`tests.third_game`) is registered and served by the real app, unchanged:
listed, created, played to its end, streamed, exported and verified (by the
server's audit and by ``cablecar verify``), its hidden cards redacted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from cablecar.cli import main as cli_main
from domain import registry
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import act, auth, legal, view
from tests.third_game import GAME


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """The app with ``stones`` registered next to the built-in games."""
    monkeypatch.setitem(registry.GAMES, GAME.type_id, GAME)
    app = create_app(settings)
    app.testing = True
    yield app
    app.extensions["cablecar"].stores.close()


def events_of(client: FlaskClient, game: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    headers = auth(game["seats"][seat]["token"]) if seat is not None else {}
    resp = client.get(f"/v1/games/{game['id']}/events", headers=headers)
    assert resp.status_code == 200, resp.get_json()
    return list(resp.get_json()["events"])


def dealt_cards(events: list[dict[str, Any]]) -> dict[int, int | None]:
    return {e["payload"]["seat"]: e["payload"]["card"] for e in events if e["type"] == "card_dealt"}


def test_the_game_is_listed_with_its_actions(client: FlaskClient) -> None:
    types = {t["type"]: t for t in client.get("/v1/games-types").get_json()["types"]}
    assert {"ttr-sf", "cable-car", "stones"} <= set(types)
    stones = types["stones"]
    assert (stones["title"], stones["min_players"], stones["max_players"]) == ("Stones", 2, 2)
    assert stones["actions"] == ["resign", "take"]
    [resign, take] = stones["action_bodies"]
    assert resign["fields"] == []
    assert take["fields"] == [
        {"name": "count", "required": True, "description": "an integer 1-3",
         "schema": {"type": "integer", "minimum": 1, "maximum": 3}}
    ]
    assert client.get("/v1/boards/stones").get_json()["pile"] == 10


def test_created_played_to_the_end_streamed_exported_and_verified(client: FlaskClient, tmp_path: Path) -> None:
    refused = client.post("/v1/games", json={"type": "stones", "players": [{"name": "Ada"}]})
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_config"
    created = client.post("/v1/games", json={"type": "stones", "players": [{"name": "Ada"}, {"name": "Bo"}],
                                             "seed": "third-game", "open_deal": True})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    assert game["type"] == "stones" and game["status"] == "playing" and game["version"] == 3

    # each seat sees its own card only; a spectator sees none
    own = [view(client, game, seat)["me"]["card"] for seat in (0, 1)]
    assert all(isinstance(card, int) for card in own) and own[0] != own[1]
    assert [p["card"] for p in view(client, game, 0)["players"]] == [own[0], None]
    assert [p["card"] for p in view(client, game)["players"]] == [None, None]
    assert dealt_cards(events_of(client, game, 1)) == {0: None, 1: own[1]}
    assert dealt_cards(events_of(client, game)) == {0: None, 1: None}

    # the rules speak through the usual problems
    assert act(client, game, 1, {"type": "take", "count": 1}).get_json()["code"] == "not_your_turn"
    bad = act(client, game, 0, {"type": "take", "count": 4})
    assert bad.status_code == 400 and bad.get_json()["code"] == "invalid_request"
    assert act(client, game, 0, {"type": "take"}).status_code == 400
    assert act(client, game, 0, {"type": "lay_tiles", "placements": []}).status_code == 400
    assert client.get(f"/v1/games/{game['id']}/export").get_json()["code"] == "game_not_finished"

    # play to the end, each seat taking the most it may
    turns = 0
    while (current := view(client, game))["status"] != "finished":
        seat = current["active_seats"][0]
        assert legal(client, game, 1 - seat) == [{"type": "resign"}]  # a seat may resign at any time
        moves = [a for a in legal(client, game, seat) if a["type"] != "resign"]
        resp = act(client, game, seat, moves[-1],
                   headers={"Idempotency-Key": f"turn-{turns}"})
        assert resp.status_code == 201, resp.get_json()
        turns += 1
    final = view(client, game)
    assert final["pile"] == 0 and final["active_seats"] == []
    assert turns == 4 and final["winner"] == 1  # 3 + 3 + 3 + 1: the second seat takes the last stone
    assert final["result"] == {"winner": 1, "cards": own}
    assert act(client, game, 0, {"type": "take", "count": 1}).get_json()["code"] == "game_finished"
    # once over, every card is public
    assert dealt_cards(events_of(client, game)) == {0: own[0], 1: own[1]}
    summary = client.get("/v1/games?type=stones").get_json()["games"]
    assert [(g["id"], g["status"]) for g in summary] == [(game["id"], "finished")]

    # the event stream carries the whole log
    stream = client.get(f"/v1/games/{game['id']}/events/stream")
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    lines = stream.get_data(as_text=True).splitlines()
    assert [int(line[4:]) for line in lines if line.startswith("id: ")] == list(range(1, final["version"] + 1))
    streamed = [json.loads(line[6:]) for line in lines if line.startswith("data: ") and '"seq"' in line]
    assert [e["type"] for e in streamed] == ["started", "card_dealt", "card_dealt", *["stones_taken"] * 4]

    # the export verifies, on the server and offline
    export = client.get(f"/v1/games/{game['id']}/export")
    assert export.status_code == 200
    record = export.get_json()
    assert record["seed"]["value"] == "third-game" and len(record["events"]) == final["version"]
    audit = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert audit["ok"] is True, audit
    assert [c["name"] for c in audit["checks"] if c["ok"]] == [c["name"] for c in audit["checks"]]
    path = tmp_path / "stones.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert cli_main(["verify", str(path)]) == 0

    # a record whose dealt card was changed is refused by the verifier
    forged = json.loads(json.dumps(record))
    dealt = next(e for e in forged["events"] if e["type"] == "card_dealt")
    dealt["payload"]["card"] = 10 - dealt["payload"]["card"] if dealt["payload"]["card"] != 5 else 4
    path.write_text(json.dumps(forged), encoding="utf-8")
    assert cli_main(["verify", str(path)]) == 1
