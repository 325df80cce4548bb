"""Where openapi.yaml and the server disagreed (issue 27, item 5), each case
settled and checked against the real app:

* every GET open to anyone, sent with its documented parameter examples, is
  answered as documented; an example of an answer the server derives from its
  code alone (the game types, the event catalogues) is that answer;
* during ttr-sf's setup a turn action is ``409 not_your_turn`` from a seat
  outside ``active_seats`` and ``422 illegal_action`` (``setup_not_finished``)
  from a seat still choosing, as the error table says;
* a creation replayed after what it created was deleted or cancelled answers
  the first answer, byte for byte, and brings nothing back (the server was
  right; the spec now says so);
* the event stream's response schema describes the whole stream.
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import act, auth, create, view
from tests.api.test_openapi import check_response, operations, resolve, spec

#: 200 answers the server derives from its code alone (no stored data): their
#: examples must be the answer itself, not an illustration
DERIVED = ("/v1/game-types", "/v1/games-types", "/v1/game-types/{type}/events")


def _open_gets() -> list[tuple[str, dict[str, Any]]]:
    """Every GET anyone may send whose parameters name no stored data (a game id
    cannot have an example this server holds)."""
    out = []
    for path, method, op in operations():
        if method != "get" or op.get("security", spec().get("security")) != []:
            continue
        params = [resolve(p) for p in op.get("parameters", [])]
        if any(p["in"] == "path" and p["name"] == "id" for p in params):
            continue
        if path.startswith("/v1/log/"):  # a fresh server has published no checkpoint: test_transparency_log checks them
            continue
        out.append((path, op))
    return out


def _example(param: dict[str, Any]) -> Any:
    """The documented value of a parameter: its example, else its schema's first example or enum value."""
    if "example" in param:
        return param["example"]
    schema = resolve(param.get("schema", {}))
    for key in ("examples", "enum"):
        if schema.get(key):
            return schema[key][0]
    return None


def _url(path: str, op: dict[str, Any], **values: str) -> str:
    query: dict[str, Any] = {}
    for param in map(resolve, op.get("parameters", [])):
        value = values.get(param["name"], _example(param))
        if param["in"] == "path":
            assert value is not None, f"{path}: path parameter {param['name']} has no example"
            path = path.replace("{" + param["name"] + "}", str(value))
        elif param["in"] == "query" and value is not None:
            query[param["name"]] = value
    return path + ("?" + urlencode(query) if query else "")


def test_every_open_get_answers_its_documented_example_request(client: FlaskClient) -> None:
    checked = []
    for path, op in _open_gets():
        resp = client.get(_url(path, op))
        assert resp.status_code == 200, f"GET {_url(path, op)}: {resp.status_code}"
        check_response(resp, path)
        checked.append(path)
    assert {"/v1/game-types", "/web/{asset}", "/v1/boards/{type}", "/v1/keys"} <= set(checked)


def test_examples_of_derived_answers_are_the_answers(client: FlaskClient) -> None:
    for path in DERIVED:
        op = spec()["paths"][path]["get"]
        examples = op["responses"]["200"]["content"]["application/json"]["examples"]
        assert examples, path
        for name, example in examples.items():
            # an example named after a game type shows that type's answer
            values = {"type": name} if "{type}" in path else {}
            answer = client.get(_url(path, op, **values)).get_json()
            assert resolve(example)["value"] == answer, f"the example {name!r} of GET {path} is not the answer"


def test_a_turn_action_during_ttr_setup_is_refused_as_the_error_table_says(client: FlaskClient) -> None:
    game = create(client, "ttr-sf", players=3, seed="setup-codes")
    placer = view(client, game)["souvenir_placer"]
    done = next(seat for seat in range(3) if seat != placer)
    pending = view(client, game, done)["me"]["pending_tickets"]
    kept = act(client, game, done, {"type": "keep_tickets", "tickets": [t["id"] for t in pending]})
    assert kept.status_code == 201, kept.get_json()
    active = view(client, game)["active_seats"]
    assert done not in active and view(client, game)["status"] == "setup"
    for action in ({"type": "draw_card", "source": "deck"}, {"type": "draw_tickets"}):
        refused = act(client, game, done, action)
        assert refused.status_code == 409
        assert check_response(refused, "/v1/games/{id}/actions", "post")["code"] == "not_your_turn"
        choosing = act(client, game, active[0], action)
        body = check_response(choosing, "/v1/games/{id}/actions", "post")
        assert (choosing.status_code, body["code"], body["reason"]) == (422, "illegal_action", "setup_not_finished")


@pytest.fixture
def organiser_app(tmp_path: Any) -> Any:
    app: Flask = create_app(Settings(data_dir=str(tmp_path), webhook_private_addresses=True, webhooks=False))
    yield app
    app.extensions["cablecar"].stores.close()


def test_a_creation_replayed_after_its_webhook_was_deleted_gets_the_first_answer(organiser_app: Flask) -> None:
    client = organiser_app.test_client()
    token = auth(client.post("/v1/organisers", json={"name": "Cup"}).get_json()["token"])
    key = {"Idempotency-Key": str(uuid.uuid4())}
    hook = {"url": "http://127.0.0.1:9/hook", "events": ["game.finished"]}
    first = client.post("/v1/webhooks", json=hook, headers={**token, **key})
    assert first.status_code == 201
    hook_id = first.get_json()["id"]
    assert client.delete(f"/v1/webhooks/{hook_id}", headers=token).status_code == 204
    replay = client.post("/v1/webhooks", json=hook, headers={**token, **key})
    assert (replay.status_code, replay.data, replay.headers["Location"]) == (
        201, first.data, first.headers["Location"])
    check_response(replay, "/v1/webhooks", "post")
    # the replay brings nothing back
    assert client.get(f"/v1/webhooks/{hook_id}", headers=token).status_code == 404
    assert client.get("/v1/webhooks", headers=token).get_json()["webhooks"] == []
    assert client.get(f"/v1/webhooks/{hook_id}/deliveries", headers=token).status_code == 200
    # and the spec says so, where the key is described
    described = " ".join(resolve({"$ref": "#/components/parameters/CreationKey"})["description"].split())
    assert "webhook deleted since answers `201`" in described

    game_key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"type": "cable-car", "players": [{"name": "Ada"}, {"name": "Bo"}]}
    made = client.post("/v1/games", json=body, headers=game_key)
    assert client.post(f"/v1/games/{made.get_json()['id']}/cancel",
                       headers=auth(made.get_json()["host_token"])).status_code == 200
    again = client.post("/v1/games", json=body, headers=game_key)
    assert (again.status_code, again.data) == (201, made.data)
    assert "a game played on or cancelled answers its first status" in described


def test_the_event_streams_schema_is_the_whole_stream() -> None:
    op = spec()["paths"]["/v1/games/{id}/events/stream"]["get"]
    body = resolve(op["responses"]["200"]["content"]["text/event-stream"]["schema"])
    assert body["type"] == "string" and body["contentSchema"]["type"] == "array"
    assert resolve(body["contentSchema"]["items"]) is spec()["components"]["schemas"]["SseMessage"]
    # the words agree with the schema: it is not "one message"
    words = " ".join(op["description"].split())
    assert "describes one message" not in words and "describes the whole body" in words
    assert "finished game" not in spec()["components"]["schemas"]["SseMessage"]["description"]
