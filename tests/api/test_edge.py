"""The HTTP edge: protective headers on every answer, no caching of secrets,
JSON bodies only (415), no default /static/ route, escaped access-log lines,
a private SQLite file, and the rules of player names."""

from __future__ import annotations

import stat
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask.testing import FlaskClient

from service.serving.gunicorn_conf import EscapingLogger
from tests.api.conftest import auth, create

GAME = {"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]}


@pytest.mark.parametrize("path", ["/v1/games", "/v1/health", "/docs", "/openapi.yaml", "/openapi.json",
                                  "/v1/games/nope", "/"])
def test_every_answer_forbids_sniffing_and_framing(client: FlaskClient, path: str) -> None:
    resp = client.get(path)
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert resp.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in resp.headers["Content-Security-Policy"]


def test_answers_with_tokens_are_not_stored(client: FlaskClient) -> None:
    created = client.post("/v1/games", json=GAME)
    assert created.headers["Cache-Control"] == "no-store"
    organiser = client.post("/v1/organisers", json={"name": "Org"})
    assert organiser.headers["Cache-Control"] == "no-store"
    org = auth(organiser.get_json()["token"])
    batch = client.post("/v1/batches", json={"type": "ttr-sf", "tables": [{"players": GAME["players"]}]}, headers=org)
    assert batch.status_code == 201 and batch.headers["Cache-Control"] == "no-store"
    game = created.get_json()
    rotated = client.post(f"/v1/games/{game['id']}/seats/0/token", headers=auth(game["host_token"]))
    assert rotated.status_code == 200 and rotated.headers["Cache-Control"] == "no-store"
    assert "no-store" not in client.get(f"/v1/games/{game['id']}").headers.get("Cache-Control", "")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          None])
def test_bodies_not_sent_as_json_are_refused_with_415(client: FlaskClient, content_type: str | None) -> None:
    import json

    headers = {"Content-Type": content_type} if content_type else {}
    resp = client.post("/v1/games", data=json.dumps(GAME), headers=headers)
    assert resp.status_code == 415 and resp.mimetype == "application/problem+json"
    assert resp.get_json()["code"] == "unsupported_media_type"
    # the answer names the content type that was sent, not "a JSON body is required"
    sent = repr(content_type.split(";")[0]) if content_type else "no Content-Type header"
    assert sent in resp.get_json()["detail"] and "application/json" in resp.get_json()["detail"]
    assert client.get("/v1/games").get_json()["games"] == []  # nothing written
    assert client.post("/v1/games", data=json.dumps(GAME), content_type="application/merge-patch+json"
                       ).status_code == 201


def test_no_default_static_route(client: FlaskClient) -> None:
    assert client.get("/static/web/index.html").status_code == 404
    assert client.get("/static/docs.html").status_code == 404
    assert client.get("/web/app.css").status_code == 200


def test_access_log_lines_cannot_be_forged() -> None:
    logger = EscapingLogger.__new__(EscapingLogger)
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": "/v1/games/a%0A", "SERVER_PROTOCOL": "HTTP/1.1",
               "PATH_INFO": "/v1/games/a\n1.2.3.4 \"GET /admin\" 200\r\x00", "QUERY_STRING": ""}
    resp = SimpleNamespace(status="404 NOT FOUND", sent=10, headers=[])
    atoms = logger.atoms(resp, SimpleNamespace(headers=[("X-Evil", "a\nb")]), environ,
                         SimpleNamespace(seconds=0, microseconds=5))
    assert atoms["U"] == '/v1/games/a\\x0a1.2.3.4 "GET /admin" 200\\x0d\\x00'
    assert atoms["{x-evil}i"] == "a\\x0ab"


def test_the_sqlite_file_is_private(client: FlaskClient, tmp_path: Path) -> None:
    create(client)
    files = [p for p in tmp_path.iterdir() if p.name.startswith("cablecar.sqlite3")]
    assert files and {p.name for p in files} >= {"cablecar.sqlite3", "cablecar.sqlite3-wal"}
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


@pytest.mark.parametrize(("names", "field", "message"), [
    (["  ", "Bo"], "players.0.name", "Length must be between 1 and 40"),
    (["Ada", "B\u202eo"], "players.1.name", "format characters (U+202E)"),
    (["A\u2066da", "Bo"], "players.0.name", "U+2066"),
    (["Ada", "B\u200bo"], "players.1.name", "U+200B"),
    (["Ada", "bo", "ADA"], "players.2.name", "the same name as players[0]"),
    (["Ada", " ada "], "players.1.name", "the same name as players[0]"),
])
def test_player_name_rules(client: FlaskClient, names: list[str], field: str, message: str) -> None:
    players = [{"name": n} for n in names]
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": players})
    assert resp.status_code == 400, resp.get_json()
    errors = resp.get_json()["errors"]
    assert [e["field"] for e in errors] == [field] and message in errors[0]["message"]
    org = auth(client.post("/v1/organisers", json={"name": "Org"}).get_json()["token"])
    batch = client.post("/v1/batches", json={"type": "ttr-sf", "tables": [{"players": [{"name": "X"}, {"name": "Y"}]},
                                                                       {"players": players}]}, headers=org)
    assert batch.status_code == 400 and [e["field"] for e in batch.get_json()["errors"]] == [f"tables.1.{field}"]
    assert client.get("/v1/games").get_json()["games"] == []


def test_names_are_trimmed(client: FlaskClient) -> None:
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "  Ada "}, {"name": "Bo\t"}]})
    assert resp.status_code == 400  # a tab is a control character
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "  Ada "}, {"name": "Bo"}]})
    assert resp.status_code == 201 and [s["name"] for s in resp.get_json()["seats"]] == ["Ada", "Bo"]


def test_every_json_answer_is_written_one_way(client: FlaskClient) -> None:
    """Compact, ending in a new line: dicts Flask writes, views, problems, exports, results."""
    from service.api.text import json_text
    from tests.api.conftest import play_to_end

    org = client.post("/v1/organisers", json={"name": "Style"}).get_json()
    batch = client.post("/v1/batches", json={"type": "ttr-sf", "tables": [{"players": GAME["players"]}]},
                        headers=auth(org["token"])).get_json()
    game = batch["games"][0]
    play_to_end(client, game)
    answers = [
        client.get("/v1/health"),
        client.get(f"/v1/games/{game['id']}"),
        client.get("/v1/games/nope"),
        client.get(f"/v1/games/{game['id']}/export"),
        client.get(f"/v1/batches/{batch['id']}/results", headers=auth(org["token"])),
        client.get("/v1/games"),
    ]
    for resp in answers:
        assert resp.get_data(as_text=True) == json_text(resp.get_json()), resp.request.path
