"""openapi.yaml against itself and against the app.

* the document is valid OpenAPI 3.1 and the repository-root ``openapi.yaml``
  is a relative symlink to the packaged one;
* the spec and the Flask URL map describe exactly the same operations;
* ``/openapi.yaml``, ``/openapi.json`` and ``/docs`` are served (the page
  is self-contained);
* every example in the spec validates against its own schema, every action
  example passes the server's own shape check, and the enums the server
  depends on (game types, action types, problem codes) match the code;
* bodies the app really sends (views, legal actions, events, problems,
  records) validate against the documented response schemas.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import OpenAPIV31SpecValidator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from werkzeug.test import TestResponse

from domain.cablecar import GAME as CABLE_CAR
from domain.cablecar.actions import Roll, StartRide
from domain.core import STATUSES
from domain.custody import STATUS_SCHEDULED
from domain.registry import all_games, game_definition
from service.api.app import create_app
from service.api.problems import TITLES
from service.config import Settings
from tests.api.conftest import act, auth, create, finish_setup, legal, play_to_end
from tests.unit.cablecar.helpers import act as play
from tests.unit.cablecar.helpers import ride_ready, with_next_face

SPEC_URI = "urn:cablecar:openapi"
REPO_ROOT = Path(__file__).resolve().parents[2]
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
JSON_MEDIA = re.compile(r"^application/(.+\+)?json$")
#: Flask rule variable name -> the OpenAPI path parameter that stands for it
PARAM_NAMES = {"game_id": "id", "type_id": "type"}


# ----------------------------------------------------------------- helpers
@cache
def spec() -> dict[str, Any]:
    """The packaged openapi.yaml, parsed."""
    text = resources.files("service").joinpath("openapi.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


@cache
def registry() -> Registry:
    """A JSON Schema registry holding the whole spec, so ``#/components/...`` resolves."""
    return Registry().with_resource(
        SPEC_URI, Resource.from_contents(spec(), default_specification=DRAFT202012)
    )


def pointer(*parts: str) -> str:
    """A JSON pointer into the spec (RFC 6901 escaping)."""
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def validator(ptr: str) -> jsonschema.Draft202012Validator:
    """A validator for the schema at ``ptr`` in the spec (``$ref``s resolve)."""
    return jsonschema.Draft202012Validator(
        {"$ref": SPEC_URI + ptr},
        registry=registry(),
        format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER,
    )


def component(name: str) -> jsonschema.Draft202012Validator:
    """A validator for ``#/components/schemas/<name>``."""
    assert name in spec()["components"]["schemas"], f"no schema {name}"
    return validator(pointer("components", "schemas", name))


def game_union(game_type: str) -> jsonschema.Draft202012Validator:
    """A validator for the game type's own union of actions (``ActionRequest``'s ``x-game-unions``)."""
    unions = spec()["components"]["schemas"]["ActionRequest"]["x-game-unions"]
    index = next(i for i, u in enumerate(unions) if u["x-game-type"] == game_type)
    return validator(pointer("components", "schemas", "ActionRequest", "x-game-unions", str(index)))


def errors_of(v: jsonschema.Draft202012Validator, instance: Any) -> list[str]:
    """Readable validation errors (empty when valid)."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in v.iter_errors(instance)
    ]


def resolve(node: Any) -> Any:
    """Follow a local ``$ref`` (components only) to its target."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        target: Any = spec()
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (path, method, operation) of the spec."""
    for path, item in spec()["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield path, method, item[method]


def response_spec(path: str, method: str, status: int) -> tuple[dict[str, Any], list[str]]:
    """The response object documented for ``status`` and its JSON pointer parts."""
    responses = spec()["paths"][path][method]["responses"]
    key = str(status) if str(status) in responses else "default"
    assert key in responses, f"{method.upper()} {path} does not document status {status}"
    node = responses[key]
    parts = ["paths", path, method, "responses", key]
    if "$ref" in node:
        ref = node["$ref"]
        parts = [p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/")]
        node = resolve(node)
    return node, parts


def evenly(items: list[Any], at_most: int) -> list[Any]:
    """At most ``at_most`` items spread evenly over ``items`` (first and last kept)."""
    if len(items) <= at_most:
        return items
    step = (len(items) - 1) / (at_most - 1)
    return [items[round(i * step)] for i in range(at_most)]


def sse_messages(text: str) -> list[dict[str, Any]]:
    """The messages of an event stream as an ``EventSource`` dispatches them:
    blocks with data only, ``event`` defaulting to ``message``, ``id`` the last
    id seen, ``retry`` as an integer."""
    messages: list[dict[str, Any]] = []
    last_id: str | None = None
    for block in re.split(r"\r\n\r\n|\n\n|\r\r", text):
        fields: dict[str, Any] = {}
        data: list[str] = []
        for line in re.split(r"\r\n|\n|\r", block):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                data.append(value)
            elif name == "id":
                last_id = value
            elif name == "retry" and value.isdigit():
                fields["retry"] = int(value)
            elif name == "event":
                fields["event"] = value
        if data:
            message = {"data": "\n".join(data), "event": fields.get("event") or "message", **fields}
            if last_id is not None:
                message["id"] = last_id
            messages.append(message)
    return messages


def check_response(resp: TestResponse, path: str, method: str = "get", thin: str | None = None) -> Any:
    """Assert ``resp`` is documented for (path, method): status, media type, headers
    and body schema.  ``thin`` names a list field of the body validated on an even
    sample only (a cable-car seat may have 100 000+ legal actions)."""
    node, parts = response_spec(path, method, resp.status_code)
    content = node.get("content", {})
    if not content:
        assert not resp.data, f"{resp.status_code} of {method.upper()} {path} is documented without a body"
        return None
    media = resp.mimetype or ""
    assert media in content, f"{method.upper()} {path} {resp.status_code}: {media} not in {sorted(content)}"
    for name, header in node.get("headers", {}).items():
        if name in resp.headers:
            header_ptr = header["$ref"] if "$ref" in header else pointer(*parts, "headers", name)
            problems = errors_of(validator(header_ptr + "/schema"), resp.headers[name])
            assert not problems, f"header {name}: {problems}"
    if media == "text/event-stream":
        # The body is a string (generators read it as text); each message has
        # the schema of the items of the body's contentSchema.
        body_schema = resolve(content[media]["schema"])
        assert body_schema["type"] == "string"
        message_ptr = body_schema["contentSchema"]["items"]["$ref"]
        messages = sse_messages(resp.get_data(as_text=True))
        for message in messages:
            assert errors_of(validator(message_ptr), message) == [], message
            data_ptr = message_ptr + "/properties/data/contentSchema"
            assert errors_of(validator(data_ptr), json.loads(message["data"])) == [], message
        return messages
    if media == "application/yaml":
        assert isinstance(yaml.safe_load(resp.get_data(as_text=True)), dict)
        return resp.get_data(as_text=True)
    if media == "application/x-ndjson":
        body_schema = resolve(content[media]["schema"])
        line_ptr = body_schema["contentSchema"]["items"]["$ref"]
        lines = [json.loads(line) for line in resp.get_data(as_text=True).splitlines()]
        for line in lines:
            assert errors_of(validator(line_ptr), line) == [], line
        return lines
    if JSON_MEDIA.match(media):
        body = json.loads(resp.get_data(as_text=True))
    else:
        return resp.get_data(as_text=True)
    checked = {**body, thin: evenly(body[thin], 150)} if thin else body
    problems = errors_of(validator(pointer(*parts, "content", media, "schema")), checked)
    assert not problems, (
        f"{method.upper()} {path} {resp.status_code} body does not match the spec: {problems[:5]}"
    )
    return body


def flask_operations(app: Flask) -> set[tuple[str, str]]:
    """(OpenAPI path, method) for every rule of the app, ``static`` and HEAD/OPTIONS aside."""
    out: set[tuple[str, str]] = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(
            r"<(?:[^:<>]+:)?([^<>]+)>",
            lambda m: "{" + PARAM_NAMES.get(m.group(1), m.group(1)) + "}",
            rule.rule,
        )
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                out.add((path, method.lower()))
    return out


# ------------------------------------------------------------ the document
def test_spec_is_valid_openapi_3_1() -> None:
    assert spec()["openapi"].startswith("3.1.")
    errors = [e.message for e in OpenAPIV31SpecValidator(spec()).iter_errors()]
    assert errors == []


def test_repo_root_openapi_yaml_is_a_relative_symlink_to_the_packaged_file() -> None:
    link = REPO_ROOT / "openapi.yaml"
    assert link.is_symlink()
    assert os.readlink(link) == os.path.join("service", "openapi.yaml")
    assert link.resolve() == (REPO_ROOT / "service" / "openapi.yaml").resolve()


def test_operation_ids_are_unique_and_every_operation_is_described() -> None:
    ids = [op["operationId"] for _, _, op in operations()]
    assert len(ids) == len(set(ids))
    tags = {t["name"] for t in spec()["tags"]}
    for path, method, op in operations():
        assert op.get("summary"), f"{method} {path} has no summary"
        assert op.get("tags") and set(op["tags"]) <= tags, f"{method} {path} has unknown tags"
        assert any(code.startswith("2") for code in op["responses"]), (
            f"{method} {path} has no success response"
        )


def test_every_ref_resolves() -> None:
    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                yield node["$ref"]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    refs = set(walk(spec()))
    assert refs
    for ref in refs:
        assert resolve({"$ref": ref}) is not None, ref


def test_every_component_schema_and_example_is_used() -> None:
    text = json.dumps({k: v for k, v in spec().items() if k != "components"})
    text += json.dumps({k: v for k, v in spec()["components"].items()})
    for kind in ("schemas", "examples", "responses", "parameters", "headers"):
        for name in spec()["components"].get(kind, {}):
            assert f'"#/components/{kind}/{name}"' in text, f"components/{kind}/{name} is never referenced"


# -------------------------------------------------------- spec <-> routes
def test_spec_describes_exactly_the_routes_the_app_serves(app: Flask) -> None:
    served = flask_operations(app)
    described = {(path, method) for path, method, _ in operations()}
    undocumented = sorted(served - described)
    phantom = sorted(described - served)
    assert not undocumented, f"routes the spec does not describe: {undocumented}"
    assert not phantom, f"operations the app does not serve: {phantom}"


def test_route_comparison_would_notice_a_new_route(app: Flask) -> None:
    """The check above is not vacuous: a route added to the app shows up."""
    app.add_url_rule("/v1/games/<game_id>/undo", "undo", lambda game_id: "", methods=["POST"])
    assert ("/v1/games/{id}/undo", "post") in flask_operations(app)
    assert ("/v1/games/{id}/undo", "post") not in {(p, m) for p, m, _ in operations()}


def test_path_parameters_match_the_path_templates() -> None:
    for path, method, op in operations():
        declared = {
            resolve(p)["name"]
            for p in [*spec()["paths"][path].get("parameters", []), *op.get("parameters", [])]
            if resolve(p)["in"] == "path"
        }
        assert declared == set(re.findall(r"{([^}]+)}", path)), f"{method} {path}"


def test_game_operations_document_their_errors() -> None:
    for path, method, op in operations():
        codes = set(op["responses"])
        if "{id}" in path or "{type}" in path:
            assert "404" in codes, f"{method} {path} lacks 404"
        if path.startswith("/v1/") and path != "/v1/health":
            assert "429" in codes, f"{method} {path} lacks 429 (every route but health is rate limited)"
        if op.get("security") and {} not in op["security"]:
            assert {"401", "403"} <= codes, f"{method} {path} needs a token but lacks 401/403"
        if method == "post":
            assert {"400", "413"} <= codes, f"{method} {path} takes a body but lacks 400/413"


# ------------------------------------------------------ documents served
def test_openapi_yaml_and_json_are_served(client: FlaskClient) -> None:
    as_yaml = client.get("/openapi.yaml")
    assert as_yaml.status_code == 200 and as_yaml.mimetype == "application/yaml"
    assert yaml.safe_load(check_response(as_yaml, "/openapi.yaml")) == spec()
    as_json = client.get("/openapi.json")
    assert as_json.status_code == 200 and as_json.mimetype == "application/json"
    assert as_json.get_json() == spec()
    check_response(as_json, "/openapi.json")


def test_docs_page_is_served_and_self_contained(client: FlaskClient) -> None:
    resp = client.get("/docs")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    assert "/openapi.json" in html
    assert '<meta name="viewport"' in html
    external = re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html, flags=re.I)
    assert external == [], "the docs page must not load anything from another host"
    assert not re.search(r"@import|url\(\s*['\"]?(?:https?:)?//", html), "no external CSS"


# ---------------------------------------------------------------- examples
def media_examples() -> Iterator[tuple[str, str, Any]]:
    """(label, JSON pointer of the schema, example value) for every example of
    every JSON media type object, parameter and header in the spec."""

    def from_holder(label: str, parts: list[str], holder: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
        schema_ptr = pointer(*parts, "schema")
        if "example" in holder:
            yield label, schema_ptr, holder["example"]
        for name, ex in holder.get("examples", {}).items():
            yield f"{label} [{name}]", schema_ptr, resolve(ex)["value"]

    def walk(node: Any, parts: list[str]) -> Iterator[tuple[str, str, Any]]:
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            here = [*parts, key]
            if key == "content" and isinstance(value, dict):
                for media, holder in value.items():
                    if JSON_MEDIA.match(media):
                        yield from from_holder("/".join([*parts, media]), [*here, media], holder)
            elif key == "parameters" and isinstance(value, list):
                for i, param in enumerate(value):
                    if "$ref" not in param:
                        yield from from_holder(
                            f"{'/'.join(parts)} param {param['name']}", [*here, str(i)], param
                        )
            elif key in ("schemas", "examples"):
                continue
            else:
                yield from walk(value, here)

    yield from walk(spec()["paths"], ["paths"])
    for kind in ("responses", "requestBodies", "parameters", "headers"):
        for name, obj in spec()["components"].get(kind, {}).items():
            if kind in ("parameters", "headers"):
                yield from from_holder(f"components/{kind}/{name}", ["components", kind, name], obj)
            else:
                yield from walk(obj, ["components", kind, name])


def schema_examples() -> Iterator[tuple[str, str, Any]]:
    """(label, pointer, value) for every ``examples`` list inside component schemas."""

    def walk(node: Any, parts: list[str]) -> Iterator[tuple[str, str, Any]]:
        if isinstance(node, dict):
            if isinstance(node.get("examples"), list):
                for value in node["examples"]:
                    yield "/".join(parts), pointer(*parts), value
            for key, value in node.items():
                if key != "examples":
                    yield from walk(value, [*parts, key])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, [*parts, str(i)])

    yield from walk(spec()["components"]["schemas"], ["components", "schemas"])


ALL_EXAMPLES = [*media_examples(), *schema_examples()]


def test_there_are_examples_for_the_required_cases() -> None:
    labels = " ".join(label for label, _, _ in ALL_EXAMPLES)
    for needed in ("[ttr-sf]", "[cable-car]", "[illegal_action]", "[ttr-sf-seat]", "[cable-car-spectator]"):
        assert needed in labels, needed
    body_examples = spec()["paths"]["/v1/games/{id}/actions"]["post"]["requestBody"]["content"][
        "application/json"
    ]
    shown = {resolve(e)["value"]["type"] for e in body_examples["examples"].values()}
    assert shown == {kind for g in all_games() for kind in g.move_types}


@pytest.mark.parametrize(("label", "schema_ptr", "value"), ALL_EXAMPLES, ids=[x[0] for x in ALL_EXAMPLES])
def test_example_validates_against_its_schema(label: str, schema_ptr: str, value: Any) -> None:
    assert errors_of(validator(schema_ptr), value) == []


def test_a_wrong_example_is_caught() -> None:
    """The example check is not vacuous."""
    assert errors_of(component("ActionRequest"), {"type": "draw_card", "source": "face_up"})
    assert errors_of(component("ActionRequest"), {"type": "roll", "dice": 3})
    assert errors_of(
        component("Problem"), {"type": "x", "title": "t", "status": 422, "code": 7, "detail": ""}
    )
    assert errors_of(component("GameView"), {"type": "cable-car", "id": "x"})


def test_action_examples_pass_the_servers_shape_check() -> None:
    by_kind = {kind: g for g in all_games() for kind in g.move_types}
    body_examples = spec()["paths"]["/v1/games/{id}/actions"]["post"]["requestBody"]["content"][
        "application/json"
    ]
    for name, ref in body_examples["examples"].items():
        body = resolve(ref)["value"]
        action = by_kind[body["type"]].parse_action(dict(body))
        assert body["type"] == action.TYPE, name


# ------------------------------------------------ enums match the code
def test_enums_match_the_code() -> None:
    schemas = spec()["components"]["schemas"]
    assert set(schemas["GameTypeId"]["enum"]) == {g.type_id for g in all_games()}
    # anyOf: ``resign`` is an action of both games, so the two unions overlap
    for union in schemas["ActionRequest"]["x-game-unions"]:
        union = resolve(union)
        mapping = union["discriminator"]["mapping"]
        assert set(mapping) == set(game_definition(union["x-game-type"]).move_types)
        for kind, ref in mapping.items():
            assert resolve(resolve({"$ref": ref})["properties"]["type"])["enum"] == [kind]
    # Answers' enums are open (a later server may add values): the known
    # values are listed in `examples`, and they are exactly the code's.
    assert set(schemas["Problem"]["properties"]["code"]["examples"]) == set(TITLES)
    # the rules' statuses, and a scheduled round's before its start (domain.custody)
    assert set(schemas["GameStatusValue"]["examples"]) == {*STATUSES, STATUS_SCHEDULED}
    assert set(schemas["GameStatus"]["enum"]) == {*STATUSES, STATUS_SCHEDULED}
    for name, game in (("TtrSf", game_definition("ttr-sf")), ("CableCar", game_definition("cable-car"))):
        players = schemas[f"{name}Players"]
        assert (players["minItems"], players["maxItems"]) == (game.min_players, game.max_players)
        start_seat = schemas[f"Create{name}Game"]["properties"]["start_seat"]
        assert start_seat["maximum"] == game.max_players - 1
        assert schemas[f"Create{name}Game"]["properties"]["type"]["const"] == game.type_id


# --------------------------------------------- real answers match the spec
def test_meta_answers_match_the_spec(client: FlaskClient) -> None:
    types = check_response(client.get("/v1/games-types"), "/v1/games-types")
    assert {t["type"] for t in types["types"]} == {g.type_id for g in all_games()}
    for game in all_games():
        board = check_response(client.get(f"/v1/boards/{game.type_id}"), "/v1/boards/{type}")
        assert board["type"] == game.type_id
    check_response(client.get("/v1/boards/chess"), "/v1/boards/{type}")
    health = check_response(client.get("/v1/health"), "/v1/health")
    assert health["status"] in ("ok", "degraded")


def _answers_for(client: FlaskClient, game: dict[str, Any]) -> None:
    gid = game["id"]
    token = game["seats"][0]["token"]
    check_response(client.get(f"/v1/games/{gid}"), "/v1/games/{id}")
    seat_view = check_response(client.get(f"/v1/games/{gid}", headers=auth(token)), "/v1/games/{id}")
    assert "me" in seat_view
    etag = client.get(f"/v1/games/{gid}").headers["ETag"]
    check_response(client.get(f"/v1/games/{gid}", headers={"If-None-Match": etag}), "/v1/games/{id}")
    check_response(client.get(f"/v1/games/{gid}?at=1"), "/v1/games/{id}")
    legal_actions = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(token))
    first_page = check_response(legal_actions, "/v1/games/{id}/legal-actions", thin="actions")
    if first_page["next_cursor"] is not None:
        page = client.get(
            f"/v1/games/{gid}/legal-actions?limit=3&cursor={first_page['next_cursor']}", headers=auth(token)
        )
        assert len(check_response(page, "/v1/games/{id}/legal-actions")["actions"]) == 3
    for headers in ({}, auth(token), auth(game["host_token"])):
        check_response(
            client.get(f"/v1/games/{gid}/events?limit=5", headers=headers), "/v1/games/{id}/events"
        )
    check_response(client.get(f"/v1/games/{gid}/audit"), "/v1/games/{id}/audit")


def test_views_events_and_legal_actions_match_the_spec(client: FlaskClient) -> None:
    for game_type in [g.type_id for g in all_games()]:
        game = create(client, game_type, players=3, seed="openapi")
        _answers_for(client, game)
        created = client.post(
            "/v1/games", json={"type": game_type, "players": [{"name": "a"}, {"name": "b"}]}
        )
        check_response(created, "/v1/games", "post")
    check_response(client.get("/v1/games?limit=2"), "/v1/games")


@pytest.mark.parametrize("game_type", ["ttr-sf", "cable-car"])
def test_legal_actions_match_their_schema_and_the_servers_shape_check(
    client: FlaskClient, game_type: str
) -> None:
    game = create(client, game_type, players=2, seed="openapi-legal")
    moves = 8 if game_type == "ttr-sf" else 2  # a cable-car turn has ~150 000 legal actions
    for _ in range(moves):
        v = check_response(client.get(f"/v1/games/{game['id']}"), "/v1/games/{id}")
        seat = v["active_seats"][0]
        actions = legal(client, game, seat)
        assert actions
        for action in evenly(actions, 300):
            assert errors_of(component("ActionRequest"), action) == [], action
            assert errors_of(game_union(game_type), action) == []
            parsed = game_definition(game_type).parse_action(dict(action))
            assert parsed.to_body() == action
        # the last move (``resign``, listed last while the seat is in, would end a two-seat game)
        move = [a for a in actions if a["type"] != "resign"][-1]
        resp = act(client, game, seat, move)
        check_response(resp, "/v1/games/{id}/actions", "post")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The conftest settings without the webhook dispatcher (these tests make no
    webhooks, and its thread must not read the store while the fixture closes it)."""
    return Settings(data_dir=str(tmp_path), sse_max_seconds=2, sse_heartbeat_seconds=1, webhooks=False)


@pytest.fixture
def quick_client(tmp_path: Path) -> Iterator[FlaskClient]:
    """A client whose event streams close at once (after what is stored).  No
    webhook dispatcher: its thread would read the store while it is closed."""
    settings = Settings(data_dir=str(tmp_path), sse_max_seconds=0, sse_heartbeat_seconds=1, webhooks=False)
    app = create_app(settings)
    yield app.test_client()
    app.extensions["cablecar"].stores.close()


def test_event_stream_messages_hold_documented_events(quick_client: FlaskClient) -> None:
    game = create(quick_client, "ttr-sf", players=2, seed="openapi-stream")
    resp = quick_client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": "1"})
    messages = check_response(resp, "/v1/games/{id}/events/stream")
    assert resp.get_data(as_text=True).startswith("retry: 2000\n\nevent: view\n")
    # first the game as it stands (issue 38), then the events, each with the version and whose turn it is
    view = quick_client.get(f"/v1/games/{game['id']}").get_json()
    assert messages[0]["event"] == "view" and "id" not in messages[0]
    assert json.loads(messages[0]["data"]) == {"game_id": game["id"], "status": view["status"], "seat": None,
                                               "version": view["version"], "active_seats": view["active_seats"]}
    assert [int(m["id"]) for m in messages[1:]] == list(range(2, game["version"] + 1))
    for message in messages[1:]:
        assert message["event"] == "message"
        data = json.loads(message["data"])
        assert data["seq"] == int(message["id"])
        assert (data["version"], data["active_seats"]) == (view["version"], view["active_seats"])
    bad = quick_client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": "x"})
    assert check_response(bad, "/v1/games/{id}/events/stream")["code"] == "invalid_request"


def test_a_finished_game_matches_the_spec(quick_client: FlaskClient) -> None:
    client = quick_client
    game = create(client, "ttr-sf", players=3, seed="openapi-finished")
    play_to_end(client, game)
    gid = game["id"]
    final = check_response(
        client.get(f"/v1/games/{gid}", headers=auth(game["seats"][1]["token"])), "/v1/games/{id}"
    )
    assert final["status"] == "finished" and final["result"]["winners"]
    refused = act(client, game, 0, {"type": "draw_tickets"})
    assert check_response(refused, "/v1/games/{id}/actions", "post")["code"] == "game_finished"
    page = check_response(client.get(f"/v1/games/{gid}/events?limit=1000"), "/v1/games/{id}/events")
    assert all("hash" in e and "prev_hash" in e for e in page["events"])
    stream = client.get(f"/v1/games/{gid}/events/stream?after={final['version'] - 1}")
    last = check_response(stream, "/v1/games/{id}/events/stream")[-1]
    assert last["event"] == "end" and json.loads(last["data"]) == {
        "version": final["version"],
        "status": "finished",
    }
    record = check_response(client.get(f"/v1/games/{gid}/export"), "/v1/games/{id}/export")
    assert len(record["events"]) == final["version"]
    lines = check_response(client.get(f"/v1/games/{gid}/export.ndjson"), "/v1/games/{id}/export.ndjson")
    assert [line["kind"] for line in lines] == ["header"] + ["event"] * final["version"]
    for line in lines:
        assert errors_of(component("ExportLine"), line) == []
    # /export declares JSON only (one media type per answer, issue 38) and still answers NDJSON when asked
    ndjson = client.get(f"/v1/games/{gid}/export", headers={"Accept": "application/x-ndjson"})
    assert "Accept" in ndjson.headers["Vary"]
    assert [json.loads(line) for line in ndjson.get_data(as_text=True).splitlines()] == lines
    audit = check_response(client.get(f"/v1/games/{gid}/audit"), "/v1/games/{id}/audit")
    assert audit["ok"] and {"chain", "seed", "moves", "result"} <= {c["name"] for c in audit["checks"]}


def test_a_cancelled_games_stream_ends_with_its_status(quick_client: FlaskClient) -> None:
    """The closing ``end`` message carries the final status, ``cancelled`` here (issue 27)."""
    game = create(quick_client, "cable-car", players=2, seed="openapi-cancelled")
    cancelled = quick_client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["host_token"]))
    assert cancelled.status_code == 200, cancelled.get_json()
    stream = quick_client.get(f"/v1/games/{game['id']}/events/stream")
    last = check_response(stream, "/v1/games/{id}/events/stream")[-1]
    assert last["event"] == "end"
    end = json.loads(last["data"])
    assert end["status"] == "cancelled" and errors_of(component("StreamEnd"), end) == []
    assert errors_of(component("StreamEnd"), {**end, "status": "playing"})  # only final statuses


def test_problems_match_the_spec(client: FlaskClient) -> None:
    game = create(client, "ttr-sf", players=2, seed="openapi-problems")
    gid = game["id"]
    path = "/v1/games/{id}/actions"
    token = auth(game["seats"][0]["token"])
    check_response(client.post(f"/v1/games/{gid}/actions", json={"type": "draw_tickets"}), path, "post")
    check_response(client.post(f"/v1/games/{gid}/actions", json={"type": "fly"}, headers=token), path, "post")
    check_response(
        client.post(
            f"/v1/games/{gid}/actions", json={"type": "draw_tickets"}, headers=auth(game["host_token"])
        ),
        path,
        "post",
    )
    other = create(client, "ttr-sf", players=2, seed="openapi-other")
    forbidden = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(other["seats"][0]["token"]))
    assert check_response(forbidden, "/v1/games/{id}/legal-actions")["code"] == "forbidden"
    stale = client.post(
        f"/v1/games/{gid}/actions", json={"type": "draw_tickets", "expected_version": 0}, headers=token
    )
    assert check_response(stale, path, "post")["code"] in ("stale_version", "not_your_turn", "illegal_action")
    check_response(client.get("/v1/games/0000000000000000"), "/v1/games/{id}")
    check_response(client.get(f"/v1/games/{gid}?at=9999"), "/v1/games/{id}")
    check_response(client.get(f"/v1/games/{gid}/export"), "/v1/games/{id}/export")
    check_response(client.post("/v1/games", json={"type": "ttr-sf", "players": []}), "/v1/games", "post")
    unknown_type = client.post("/v1/games", json={"type": "chess", "players": [{"name": "a"}, {"name": "b"}]})
    check_response(unknown_type, "/v1/games", "post")
    too_many = client.post(
        "/v1/games", json={"type": "ttr-sf", "players": [{"name": str(i)} for i in range(5)]}
    )
    assert check_response(too_many, "/v1/games", "post")["code"] == "invalid_config"
    finish_setup(client, game)
    v = client.get(f"/v1/games/{gid}").get_json()
    idle = [s for s in range(2) if s not in v["active_seats"]][0]
    refused = act(client, game, idle, {"type": "draw_tickets"})
    assert check_response(refused, path, "post")["code"] == "not_your_turn"
    mover = v["active_seats"][0]
    legal_now = legal(client, game, mover)
    illegal = {"type": "claim_route", "route": "no-such-route", "cards": {"red": 1}}
    assert illegal not in legal_now
    problem = check_response(act(client, game, mover, illegal), path, "post")
    assert problem["code"] == "illegal_action" and problem["reason"]
    first = act(client, game, mover, legal_now[0], headers={"Idempotency-Key": "k1"})
    check_response(first, path, "post")
    reused = act(client, game, mover, {"type": "draw_tickets"}, headers={"Idempotency-Key": "k1"})
    assert check_response(reused, path, "post")["code"] in ("idempotency_key_reused",)


def test_a_cable_car_ride_to_the_end_matches_the_view_schema() -> None:
    """The riding and finished cable-car views (trams, rides, revealed lines,
    result) against ``CableCarView``; built with the rules directly because
    reaching a ride through random play takes too long for this suite."""

    def as_served(state: Any, seat: int | None) -> dict[str, Any]:
        # the service adds the envelope and an untimed game's clock fields to the rules' view
        clock_fields = {"time_control": {"kind": "none"}, "clocks": [], "deadline": None}
        return {**CABLE_CAR.view(state, seat), "id": "0123456789abcdef", "type": "cable-car", "version": 1,
                **clock_fields}

    state = ride_ready(2, "openapi-ride")
    rider = state.turn
    _, state = play(state, rider, StartRide())
    seen: list[dict[str, Any]] = []
    for _ in range(60):
        seen += [as_served(state, None), as_served(state, rider), as_served(state, 1 - rider)]
        if CABLE_CAR.status(state) == "finished":
            break
        seat = CABLE_CAR.active_seats(state)[0]
        if seat == rider:
            _, state = play(with_next_face(state, "H"), seat, Roll())
        else:
            _, state = play(state, seat, CABLE_CAR.legal_actions(state, seat)[0])
    final = seen[-1]
    assert final["status"] == "finished" and final["result"]["winners"] == [rider]
    assert any(v["players"][rider]["tram"] for v in seen)
    for view in seen:
        assert errors_of(component("GameView"), view) == []


DOCS_HARNESS = """
const fs = require("fs");
const [script, specPath] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));
const els = {};
function el(id) {
  if (!els[id]) {
    els[id] = {id, innerHTML: "", textContent: "", tagName: "DIV", classList: {toggle() {}, add() {}},
               addEventListener() {}, setAttribute() {}, hasAttribute() { return false; }, focus() {},
               scrollIntoView() {}, querySelector() { return null; }};
  }
  return els[id];
}
global.document = {getElementById: el, querySelectorAll: () => [], addEventListener() {}, title: ""};
global.location = {hash: "", href: "http://localhost/docs"};
global.window = {addEventListener() {}, matchMedia: () => ({matches: false})};
global.fetch = () => Promise.resolve({ok: true, json: () => Promise.resolve(spec)});
eval(fs.readFileSync(script, "utf8"));
setTimeout(() => process.stdout.write(JSON.stringify({main: els.content.innerHTML, nav: els.navlists.innerHTML})), 50);
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_docs_page_renders_every_operation_and_schema(client: FlaskClient, tmp_path: Path) -> None:
    """Run the page's script under node with a stub DOM on the real spec."""
    html = client.get("/docs").get_data(as_text=True)
    script = re.search(r"<script>(.*)</script>", html, flags=re.S)
    assert script is not None
    (tmp_path / "page.js").write_text(script.group(1), encoding="utf-8")
    (tmp_path / "spec.json").write_text(json.dumps(spec()), encoding="utf-8")
    (tmp_path / "harness.js").write_text(DOCS_HARNESS, encoding="utf-8")
    run = subprocess.run(
        ["node", str(tmp_path / "harness.js"), str(tmp_path / "page.js"), str(tmp_path / "spec.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    page = json.loads(run.stdout)
    for path, method, op in operations():
        anchor = f'id="op-{op["operationId"]}"'
        assert anchor in page["main"] and f'href="#op-{op["operationId"]}"' in page["nav"], (method, path)
    for name in spec()["components"]["schemas"]:
        assert f'id="schema-{name}"' in page["main"], name
    assert "Could not load" not in page["main"]
    assert "<script" not in page["main"].lower(), "descriptions must be escaped"
