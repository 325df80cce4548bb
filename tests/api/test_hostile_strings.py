"""Strings no field may hold never cause a 5xx, on either backend.

For every string field of every request body (the marshmallow request
schemas, walked, and every move's action body from the game definitions'
``body_fields``) and for every path and query parameter of every operation
in openapi.yaml, a generated string with a lone surrogate, NUL or another
control character is sent, and bodies nested far too deep: the answer is a
problem+json 4xx (``invalid_request`` for the strings), never a 5xx.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import Schema, fields

from domain.body import AnyOf, ListOf, MapOf, Record, Shape, Text, body_fields
from domain.registry import all_games
from service.api.app import create_app
from service.api.routes.meta import openapi_dict
from service.api.schemas import requests as request_schemas
from service.api.schemas import tournament as tournament_schemas
from service.config import Settings

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]

#: every request-body schema, the operation it is the body of, and a valid body to start from
BODIES: dict[type[Schema], tuple[str, str, dict[str, Any]]] = {
    request_schemas.CreateGameSchema: (
        "/v1/games", "organiser",  # refs are an organiser's
        {"type": "ttr-sf", "players": [{"name": "Ada", "bot": None, "ref": "p1"}, {"name": "Bo"}], "seed": "s",
         "ref": "g1"},
    ),
    tournament_schemas.CreateOrganiserSchema: ("/v1/organisers", "none", {"name": "Org"}),
    tournament_schemas.CreateBatchSchema: (
        "/v1/batches",
        "organiser",
        {"type": "ttr-sf", "name": "R1", "ref": "ev/r1",
         "tables": [{"players": [{"name": "A", "bot": None, "ref": "p1"}, {"name": "B"}], "seed": "t", "ref": "t1"}]},
    ),
    tournament_schemas.CreateWebhookSchema: (
        "/v1/webhooks", "organiser", {"url": "http://example.com/hook", "batch": "b", "events": ["game.finished"]}
    ),
}

#: a surrogate, NUL, C0 and C1 controls, DEL
BAD_CHARACTERS = st.one_of(
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
    st.characters(min_codepoint=0, max_codepoint=0x1F),
    st.characters(min_codepoint=0x7F, max_codepoint=0x9F),
)
BAD_STRINGS = st.builds(
    lambda a, c, b: a + c + b,
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=5),
    BAD_CHARACTERS,
    st.text(max_size=5),
)


def string_paths(schema: Schema, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every string field a body of ``schema`` may have (lists as index 0)."""
    for name, field in schema.fields.items():
        yield from _field_paths(field, (*prefix, field.data_key or name))


def _field_paths(field: fields.Field, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    if isinstance(field, fields.String):  # Url is a String
        yield path
    elif isinstance(field, fields.List):
        yield from _field_paths(field.inner, (*path, 0))
    elif isinstance(field, fields.Nested):
        nested = field.schema
        assert isinstance(nested, Schema)
        yield from string_paths(nested, path)


def with_value(body: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``body`` with ``value`` at ``path``."""
    if not path:
        return value
    copy = json.loads(json.dumps(body))
    head, rest = path[0], path[1:]
    copy[head] = with_value(copy[head], rest, value)
    return copy


def shape_with(shape: Shape, bad: str) -> Any:
    """A JSON value of ``shape`` whose strings are all ``bad`` (None: no string in it)."""
    if isinstance(shape, Text):
        return bad
    if isinstance(shape, ListOf):
        inner = shape_with(shape.item, bad)
        return None if inner is None else [inner]
    if isinstance(shape, MapOf):
        return {bad: 1}
    if isinstance(shape, Record):
        found = {f.json_name: shape_with(f.shape, bad) for f in body_fields(shape.cls)}
        return {k: v for k, v in found.items() if v is not None} or None
    if isinstance(shape, AnyOf):
        return next((v for v in (shape_with(o, bad) for o in shape.options) if v is not None), None)
    return None


#: (move, field) of every action body field that holds a string somewhere, and every move's ``type``
ACTION_FIELDS = sorted(
    {
        (move.type, f.json_name)
        for game in all_games() for move in game.moves for f in body_fields(move.action)
        if shape_with(f.shape, "x") is not None
    }
    | {(move.type, "type") for game in all_games() for move in game.moves}
)


def _action_body(move_type: str, field: str, bad: str) -> dict[str, Any]:
    if field == "type":
        return {"type": bad}
    for game in all_games():
        for move in game.moves:
            if move.type == move_type:
                for f in body_fields(move.action):
                    if f.json_name == field:
                        return {"type": move_type, field: shape_with(f.shape, bad)}
    raise AssertionError((move_type, field))


def parameters() -> list[tuple[str, str, str, str]]:
    """(method, path template, where, name) of every path and query parameter in openapi.yaml."""
    out = []
    for template, item in openapi_dict()["paths"].items():
        shared = item.get("parameters", [])
        for method, op in item.items():
            if method in ("get", "post", "delete", "put", "patch"):
                for p in shared + op.get("parameters", []):
                    if "$ref" in p:
                        p = openapi_dict()["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]]
                    if p["in"] in ("path", "query"):
                        out.append((method.upper(), template, p["in"], p["name"]))
    return out


@dataclass
class World:
    """An app on one backend, with a game and an organiser to aim at."""

    client: FlaskClient
    game: dict[str, Any]
    organiser: str

    def headers(self, who: str) -> dict[str, str]:
        tokens = {"none": None, "organiser": self.organiser, "seat": self.game["seats"][0]["token"]}
        token = tokens[who]
        return {"Authorization": f"Bearer {token}"} if token else {}


@pytest.fixture(scope="module", params=BACKENDS)
def world(request: pytest.FixtureRequest) -> Iterator[World]:
    store = None
    admin = url = None
    if request.param == "postgres":
        from events.factory import postgres_stores
        from tests.contract.conftest import create_database, postgres_admin_url

        admin = postgres_admin_url()
        url = create_database(admin, "cc_hostile")
    settings = Settings(data_dir=tempfile.mkdtemp(prefix="cablecar-hostile-"))
    if url is not None:
        from service.adapters.signing_keys import load_server_keys

        store = postgres_stores(url, signer=load_server_keys(settings).signer)
    app = create_app(settings, stores=store)
    client = app.test_client()
    game = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "A"}, {"name": "B"}]})
    organiser = client.post("/v1/organisers", json={"name": "Org"})
    assert game.status_code == organiser.status_code == 201
    yield World(client, game.get_json(), organiser.get_json()["token"])
    app.extensions["cablecar"].stores.close()
    if admin and url:
        from tests.contract.conftest import drop_database

        drop_database(admin, url)


def assert_refused(resp: Any) -> None:
    assert resp.status_code < 500, resp.get_data(as_text=True)
    assert resp.status_code == 400 and resp.mimetype == "application/problem+json", resp.get_data(as_text=True)
    assert resp.get_json()["code"] == "invalid_request"


def post_json(world: World, path: str, who: str, body: Any) -> Any:
    # json.dumps escapes a lone surrogate as \\udXXX: valid JSON text, decoded to the surrogate
    return world.client.post(path, data=json.dumps(body), content_type="application/json", headers=world.headers(who))


SCHEMA_FIELDS = [(schema, path) for schema in BODIES for path in string_paths(schema())]
HYPOTHESIS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_every_request_schema_is_covered() -> None:
    """A new request-body schema must be added to BODIES (query schemas are covered through openapi.yaml)."""
    found = {
        obj for module in (request_schemas, tournament_schemas) for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Schema) and obj.__name__.startswith("Create")
    }
    assert found == set(BODIES)
    assert len(SCHEMA_FIELDS) >= 8 and len(ACTION_FIELDS) >= 10 and len(parameters()) >= 15


@pytest.mark.parametrize(("schema", "path"), SCHEMA_FIELDS, ids=lambda v: getattr(v, "__name__", str(v)))
@HYPOTHESIS
@given(bad=BAD_STRINGS)
def test_schema_string_fields(world: World, schema: type[Schema], path: tuple[Any, ...], bad: str) -> None:
    route, who, body = BODIES[schema]
    assert_refused(post_json(world, route, who, with_value(body, path, bad)))


@pytest.mark.parametrize(("move", "field"), ACTION_FIELDS)
@HYPOTHESIS
@given(bad=BAD_STRINGS)
def test_action_string_fields(world: World, move: str, field: str, bad: str) -> None:
    body = _action_body(move, field, bad)
    assert_refused(post_json(world, f"/v1/games/{world.game['id']}/actions", "seat", body))


@pytest.mark.parametrize(("method", "template", "where", "name"), parameters())
@HYPOTHESIS
@given(bad=BAD_STRINGS)
def test_path_and_query_parameters(world: World, method: str, template: str, where: str, name: str,
                                   bad: str) -> None:
    # a surrogate cannot be sent as UTF-8: its bytes arrive, and are read as U+FFFD
    encoded = quote(bad.encode("utf-8", "surrogatepass"), safe="")
    def fill(m: re.Match[str]) -> str:
        if where == "path" and m[1] == name:
            return encoded
        return str(world.game["id"]) if m[1] == "id" else "0"

    path = re.sub(r"\{(\w+)\}", fill, template)
    query = f"?{name}={encoded}" if where == "query" else ""
    resp = world.client.open(path + query, method=method, headers=world.headers("seat"))
    if any(not 0xD800 <= ord(c) <= 0xDFFF and (ord(c) < 32 or 0x7F <= ord(c) <= 0x9F) for c in bad):
        assert_refused(resp)
    else:  # only U+FFFD arrived, which may well be a valid value (a game type filter finding nothing)
        assert resp.status_code < 400 or (resp.status_code < 500 and resp.mimetype == "application/problem+json")


@pytest.mark.parametrize("route", ["/v1/games", "/v1/organisers", "/v1/batches", "/v1/webhooks", "actions"])
@HYPOTHESIS
@given(depth=st.one_of(st.integers(33, 3000), st.just(30000)))
def test_deep_nesting(world: World, route: str, depth: int) -> None:
    deep = "[" * depth + "]" * depth
    path = f"/v1/games/{world.game['id']}/actions" if route == "actions" else route
    for body in (deep, '{"type": "draw_card", "source": ' + deep + '}'):
        resp = world.client.post(path, data=body, content_type="application/json", headers=world.headers(
            "seat" if route == "actions" else "organiser"))
        assert_refused(resp)


@pytest.mark.parametrize("header", ["Authorization", "Idempotency-Key", "Last-Event-ID"])
def test_headers(world: World, header: str) -> None:
    for bad in ("\x00", "a\x01b", "\x7f"):
        resp = world.client.post(f"/v1/games/{world.game['id']}/actions", json={"type": "draw_card"},
                                 headers={**world.headers("seat"), header: bad})
        assert_refused(resp)


@pytest.mark.parametrize("second", [
    "\u0410da",  # Cyrillic capital A
    "\uff21\uff44\uff41",  # fullwidth Ada
    "\u0391da",  # Greek capital alpha
    "ADA",
    "Ad\u0430",  # Cyrillic small a
])
def test_a_name_that_looks_like_another_seats_is_refused(client: FlaskClient, second: str) -> None:
    """Issue 25: look-alike names sat beside `Ada`."""
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": second}]})
    assert resp.status_code == 400, resp.get_json()
    assert resp.get_json()["errors"][0]["field"] == "players.1.name"
    assert "looks like" in resp.get_json()["errors"][0]["message"]
    assert client.get("/v1/games").get_json()["games"] == []


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "\u115f\u1160", "Ada\u3164", "\ufe0f", "\u3000"])
def test_a_blank_looking_name_is_refused(client: FlaskClient, name: str) -> None:
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": name}, {"name": "Bo"}]})
    assert resp.status_code == 400, resp.get_json()
    assert resp.get_json()["errors"][0]["field"] == "players.0.name"


def test_names_are_stored_in_nfkc_form(client: FlaskClient) -> None:
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "\uff21lice"}, {"name": "Bo"}]})
    assert resp.status_code == 201
    assert [s["name"] for s in resp.get_json()["seats"]] == ["Alice", "Bo"]
