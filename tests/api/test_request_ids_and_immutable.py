"""Issue 38: every answer carries an ``X-Request-Id`` (the client's own when
well formed, else a fresh one), named in problem bodies and in the access log;
answers that can never change (a board, an event catalogue, an ended game's
export) are marked immutable, with a strong ETag and 304 to If-None-Match."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from flask.testing import FlaskClient

from tests.api.conftest import auth, create

IMMUTABLE = "public, max-age=31536000, immutable"
FRESH = re.compile(r"^[0-9a-f]{32}$")


def test_a_well_formed_request_id_is_echoed(client: FlaskClient) -> None:
    for rid in ("abc-123", "trace:0af7651916cd43dd8448eb211c80319c", "x" * 128, "!~{}\"'"):
        resp = client.get("/v1/game-types", headers={"X-Request-Id": rid})
        assert resp.status_code == 200 and resp.headers["X-Request-Id"] == rid


@pytest.mark.parametrize("sent", [None, "", "x" * 129, "has space", "caf\u00e9", "tab\there"])
def test_a_fresh_request_id_is_made_otherwise(client: FlaskClient, sent: str | None) -> None:
    headers = {} if sent is None else {"X-Request-Id": sent}
    first = client.get("/v1/health", headers=headers)
    second = client.get("/v1/health", headers=headers)
    assert first.status_code == 200  # never a refusal
    assert FRESH.match(first.headers["X-Request-Id"]) and FRESH.match(second.headers["X-Request-Id"])
    assert first.headers["X-Request-Id"] != second.headers["X-Request-Id"]


def test_every_problem_names_its_request_id(client: FlaskClient) -> None:
    game = create(client)
    answers = [
        client.get("/v1/games/nope", headers={"X-Request-Id": "req-404"}),
        client.get(f"/v1/games/{game['id']}/legal-actions", headers={"X-Request-Id": "req-401"}),
        client.post("/v1/games", data="{", content_type="application/json", headers={"X-Request-Id": "req-400"}),
        client.delete("/v1/game-types", headers={"X-Request-Id": "req-405"}),
    ]
    for resp, status in zip(answers, (404, 401, 400, 405), strict=True):
        assert resp.status_code == status and resp.mimetype == "application/problem+json"
        assert resp.get_json()["request_id"] == resp.headers["X-Request-Id"] == f"req-{status}"
    made = client.get("/v1/games/nope")
    assert FRESH.match(made.get_json()["request_id"]) and made.get_json()["request_id"] == made.headers["X-Request-Id"]


def test_the_request_id_is_in_the_access_log_line() -> None:
    from service.serving import gunicorn_conf

    logger = gunicorn_conf.EscapingLogger.__new__(gunicorn_conf.EscapingLogger)
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": "/v1/health", "SERVER_PROTOCOL": "HTTP/1.1",
               "PATH_INFO": "/v1/health", "QUERY_STRING": ""}
    for headers, logged in (([("X-Request-Id", "req-7")], "req-7"), ([], "-")):
        resp = SimpleNamespace(status="200 OK", sent=10, headers=headers)
        atoms = logger.atoms(resp, SimpleNamespace(headers=[]), environ, SimpleNamespace(seconds=0, microseconds=5))
        line = gunicorn_conf.access_log_format % atoms
        assert line.endswith(f" {logged}") and '"GET /v1/health" 200 10 0.000005s' in line


def _immutable(client: FlaskClient, path: str, **headers: str) -> None:
    first = client.get(path, headers=headers)
    assert first.status_code == 200, first.get_json()
    etag = first.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag) and first.headers["Cache-Control"] == IMMUTABLE
    again = client.get(path, headers=headers)
    assert again.headers["ETag"] == etag and again.data == first.data
    for tag in (etag, f"W/{etag}", f'"0", {etag}'):
        resp = client.get(path, headers={**headers, "If-None-Match": tag})
        assert resp.status_code == 304 and not resp.data, tag
        assert resp.headers["ETag"] == etag and resp.headers["Cache-Control"] == IMMUTABLE
    assert client.get(path, headers={**headers, "If-None-Match": '"0"'}).status_code == 200


def test_boards_and_event_catalogues_are_immutable(client: FlaskClient) -> None:
    _immutable(client, "/v1/boards/ttr-sf")
    _immutable(client, "/v1/game-types/ttr-sf/events")
    assert "immutable" not in client.get("/v1/boards/nope").headers.get("Cache-Control", "")


def test_an_ended_games_export_is_immutable(client: FlaskClient) -> None:
    game = create(client)
    export = f"/v1/games/{game['id']}/export"
    refused = client.get(export)  # still being played: may change, so not immutable
    assert refused.status_code == 409 and "ETag" not in refused.headers
    for view in (client.get(f"/v1/games/{game['id']}"),
                 client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"]))):
        assert view.status_code == 200 and "immutable" not in view.headers["Cache-Control"]
        assert "public" not in view.headers["Cache-Control"]
    assert client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["host_token"])).status_code == 200
    _immutable(client, export)
    _immutable(client, export, Accept="application/x-ndjson")
    _immutable(client, f"/v1/games/{game['id']}/export.ndjson")
    as_json, as_ndjson = client.get(export), client.get(export, headers={"Accept": "application/x-ndjson"})
    assert as_json.headers["ETag"] != as_ndjson.headers["ETag"] and "Accept" in as_json.headers["Vary"]
    # the same for anyone: a token does not make it private
    seat = client.get(export, headers=auth(game["seats"][0]["token"]))
    assert seat.headers["Cache-Control"] == IMMUTABLE

