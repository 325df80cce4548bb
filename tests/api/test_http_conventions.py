"""HTTP conventions clients rely on (issue 15): weak ETag comparison,
Cache-Control on 304 and on answers to a token, WWW-Authenticate on 401,
configurable CORS, the game-types path and its deprecated alias, and one
pagination shape (opaque ``cursor`` in, ``next_cursor`` out) with the old
parameters still answering."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth, create


def test_if_none_match_compares_weakly(client: FlaskClient) -> None:
    game = create(client)
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    for tag in (f'"{version}"', f'W/"{version}"', f'"1", W/"{version}"', "*"):
        resp = client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": tag})
        assert resp.status_code == 304, tag
        assert resp.headers["ETag"] == f'"{version}"' and resp.headers["Cache-Control"] == "no-cache"
        assert not resp.data
    assert client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": 'W/"1"'}).status_code == 200


def test_answers_to_a_token_are_private(client: FlaskClient) -> None:
    game = create(client)
    token = game["seats"][0]["token"]
    seat_view = client.get(f"/v1/games/{game['id']}", headers=auth(token))
    assert seat_view.headers["Cache-Control"] == "private, no-cache"
    legal = client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(token))
    assert legal.headers["Cache-Control"] == "private, no-cache"
    spectator = client.get(f"/v1/games/{game['id']}")
    assert spectator.headers["Cache-Control"] == "no-cache"
    # the answers that carry tokens are never stored, by any cache
    assert client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "A"}, {"name": "B"}]},
                       headers=auth(token)).headers["Cache-Control"] == "no-store"


def test_a_401_names_the_bearer_scheme(client: FlaskClient) -> None:
    game = create(client)
    for resp in (
        client.get(f"/v1/games/{game['id']}/legal-actions"),
        client.get(f"/v1/games/{game['id']}", headers=auth("st_nope_" + "x" * 30)),
        client.get("/v1/organisers/me"),
    ):
        assert resp.status_code == 401
        assert resp.headers["WWW-Authenticate"] == 'Bearer realm="cablecar"'
    assert "WWW-Authenticate" not in client.get(f"/v1/games/{game['id']}").headers


def test_game_types_path_and_its_deprecated_alias(client: FlaskClient) -> None:
    new = client.get("/v1/game-types")
    old = client.get("/v1/games-types")
    assert new.status_code == old.status_code == 200
    assert new.get_json() == old.get_json()
    assert old.headers["Deprecation"] == "true" and "/v1/game-types" in old.headers["Link"]
    assert "Deprecation" not in new.headers


def test_events_page_with_an_opaque_cursor_and_the_old_after(client: FlaskClient) -> None:
    game = create(client)
    first = client.get(f"/v1/games/{game['id']}/events?limit=2").get_json()
    assert [e["seq"] for e in first["events"]] == [1, 2]
    assert first["next_cursor"] == "2" and first["next_after"] == 2
    second = client.get(f"/v1/games/{game['id']}/events?limit=2&cursor={first['next_cursor']}").get_json()
    old = client.get(f"/v1/games/{game['id']}/events?limit=2&after={first['next_after']}").get_json()
    assert second == old and [e["seq"] for e in second["events"]] == [3, 4]
    bad = client.get(f"/v1/games/{game['id']}/events?cursor=abc")
    assert bad.status_code == 400 and bad.get_json()["code"] == "invalid_request"


def test_legal_actions_cursor_is_an_opaque_string(client: FlaskClient) -> None:
    game = create(client, "cable-car")
    token = auth(game["seats"][0]["token"])
    page = client.get(f"/v1/games/{game['id']}/legal-actions?limit=3", headers=token).get_json()
    assert isinstance(page["next_cursor"], str) and re.fullmatch(r"[A-Za-z0-9_-]+", page["next_cursor"])
    again = client.get(f"/v1/games/{game['id']}/legal-actions?limit=3&cursor={page['next_cursor']}",
                       headers=token).get_json()
    assert again["next_cursor"] != page["next_cursor"] and again["actions"] != page["actions"]


@pytest.fixture
def cors_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(Settings(data_dir=str(tmp_path), cors_origins="https://a.example, https://b.example/"))
    yield app
    app.extensions["cablecar"].stores.close()


def test_cors_is_off_by_default(client: FlaskClient) -> None:
    resp = client.get("/v1/game-types", headers={"Origin": "https://a.example"})
    assert "Access-Control-Allow-Origin" not in resp.headers
    preflight = client.options("/v1/games", headers={"Origin": "https://a.example",
                                                     "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in preflight.headers


def test_cors_for_the_configured_origins(cors_app: Flask) -> None:
    client = cors_app.test_client()
    preflight = client.options("/v1/games/abc/actions", headers={
        "Origin": "https://b.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"})
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://b.example"
    allowed = preflight.headers["Access-Control-Allow-Headers"]
    assert all(h in allowed for h in ("Authorization", "Content-Type", "Idempotency-Key"))
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    resp = client.get("/v1/game-types", headers={"Origin": "https://a.example"})
    assert resp.headers["Access-Control-Allow-Origin"] == "https://a.example"
    assert "ETag" in resp.headers["Access-Control-Expose-Headers"] and "Origin" in resp.headers["Vary"]
    other = client.get("/v1/game-types", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    # errors are readable cross-origin too (a client must see the problem)
    missing = client.get("/v1/games/nope", headers={"Origin": "https://a.example"})
    assert missing.status_code == 404 and missing.headers["Access-Control-Allow-Origin"] == "https://a.example"
