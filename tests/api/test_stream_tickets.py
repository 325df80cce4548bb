"""Stream tickets (issue 36): a browser's EventSource cannot send a token, so a
seat asks ``POST /v1/games/{id}/stream-tickets`` with its token for a
single-use ticket, valid at most 60 s, that opens its own stream as
``GET /v1/games/{id}/events/stream?ticket=...``; used, expired, unknown and
rotated-away tickets are 401, and no ticket is ever written to a log."""

from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.encoding.timestamps import parse_timestamp
from service.config import Settings
from tests.api.conftest import auth, create
from tests.api.test_recent_path import _Drain


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=str(tmp_path), sse_max_seconds=1, sse_heartbeat_seconds=1)


def _ticket(client: FlaskClient, game: dict[str, Any], seat: int = 0) -> str:
    resp = client.post(f"/v1/games/{game['id']}/stream-tickets", headers=auth(game["seats"][seat]["token"]))
    assert resp.status_code == 201, resp.get_json()
    return str(resp.get_json()["ticket"])


def _stream(client: FlaskClient, game: dict[str, Any], query: str = "", headers: dict[str, str] | None = None) -> Any:
    return client.get(f"/v1/games/{game['id']}/events/stream{query}", headers=headers or {})


def _data(resp: Any) -> list[str]:
    return [line for line in resp.get_data(as_text=True).splitlines() if line.startswith(("id:", "data:"))]


def _rows(tmp_path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
        return conn.execute("SELECT * FROM stream_tickets").fetchall()


def test_a_ticket_opens_its_seats_stream_once(client: FlaskClient, tmp_path: Path) -> None:
    game = create(client)
    before = time.time()
    resp = client.post(f"/v1/games/{game['id']}/stream-tickets", headers=auth(game["seats"][1]["token"]))
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    assert set(body) == {"ticket", "expires_at"} and len(body["ticket"]) >= 40
    expires = parse_timestamp(body["expires_at"]).timestamp()
    assert before + 50 < expires <= time.time() + 60
    # only a keyed hash is stored, with the seat it opens
    [row] = _rows(tmp_path)
    assert body["ticket"] not in str(row) and row[1:3] == (game["id"], 1)

    opened = _stream(client, game, f"?ticket={body['ticket']}")
    assert opened.status_code == 200 and opened.mimetype == "text/event-stream"
    as_seat = _data(_stream(client, game, headers=auth(game["seats"][1]["token"])))
    # the seat's own view of its events (its dealt cards), not a spectator's
    assert _data(opened) == as_seat != _data(_stream(client, game))
    assert len([line for line in as_seat if line.startswith("id:")]) == game["version"]
    assert _rows(tmp_path) == []

    again = _stream(client, game, f"?ticket={body['ticket']}")
    assert again.status_code == 401 and again.get_json()["code"] == "unauthorized"


def test_an_expired_ticket_is_refused_and_swept(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    office = app.extensions["cablecar"].tickets
    game = create(client)
    office.lifetime = 0.3
    ticket = _ticket(client, game)
    time.sleep(0.5)
    refused = _stream(client, game, f"?ticket={ticket}")
    assert refused.status_code == 401 and "expired" in refused.get_json()["detail"]
    # a lifetime never exceeds the contract's 60 s; expired rows go when new ones come
    office.lifetime = 3600
    stale = _ticket(client, game)
    office.clock = lambda: time.time() + 61
    assert _stream(client, game, f"?ticket={stale}").status_code == 401
    office.clock = time.time
    _ticket(client, game)
    office.clock = lambda: time.time() + 120
    _ticket(client, game)
    assert len(_rows(tmp_path)) == 1


def test_a_rotation_revokes_tickets_and_ends_their_streams(app: Flask, client: FlaskClient,
                                                            settings: Settings) -> None:
    game = create(client)
    unused = _ticket(client, game)
    rotated = client.post(f"/v1/games/{game['id']}/seats/0/token", headers=auth(game["host_token"]))
    assert rotated.status_code == 200
    refused = _stream(client, game, f"?ticket={unused}")
    assert refused.status_code == 401 and "rotated" in refused.get_json()["detail"]
    # a stream a ticket opened lives only as long as the token that asked for the ticket
    new_token = rotated.get_json()["token"]
    game["seats"][0]["token"] = new_token
    object.__setattr__(app.extensions["cablecar"].settings, "sse_max_seconds", 30)
    drain = _Drain(client.get(f"/v1/games/{game['id']}/events/stream?ticket={_ticket(client, game)}", buffered=False))
    time.sleep(1.2)
    assert drain.ended is None
    assert client.post(f"/v1/games/{game['id']}/seats/0/token", headers=auth(game["host_token"])).status_code == 200
    at = time.monotonic()
    drain.thread.join(8)
    assert drain.ended is not None and drain.ended - at < 5 and "token was rotated" in drain.text


def test_a_ticket_opens_nothing_else(client: FlaskClient, tmp_path: Path) -> None:
    game, other = create(client), create(client, seed="another")
    ticket = _ticket(client, game)
    assert _stream(client, other, f"?ticket={ticket}").status_code == 401  # another game
    assert _stream(client, game, "?ticket=" + "x" * 43).status_code == 401  # unknown
    # a token of another game, the host's, none at all, or a wrong one asks for no ticket
    url = f"/v1/games/{game['id']}/stream-tickets"
    assert client.post(url, headers=auth(other["seats"][0]["token"])).status_code == 403
    assert client.post(url, headers=auth(game["host_token"])).status_code == 403
    assert client.post(url).status_code == 401
    assert client.post(url, headers=auth(game["seats"][0]["token"][:-4] + "AAAA")).status_code == 401
    assert client.post("/v1/games/nope/stream-tickets", headers=auth(game["seats"][0]["token"])).status_code == 404
    assert len(_rows(tmp_path)) == 1  # only the first ticket was written


def test_bad_ticket_queries_are_clear_and_use_nothing(client: FlaskClient, tmp_path: Path) -> None:
    game = create(client)
    ticket = _ticket(client, game)
    both = _stream(client, game, f"?ticket={ticket}", headers=auth(game["seats"][0]["token"]))
    assert both.status_code == 400 and "not both" in both.get_json()["detail"]
    empty = _stream(client, game, "?ticket=")
    assert empty.status_code == 400 and empty.get_json()["errors"][0]["field"] == "ticket"
    assert _stream(client, game, "?ticket=" + "x" * 101).status_code == 400
    assert len(_rows(tmp_path)) == 1
    assert _stream(client, game, f"?ticket={ticket}").status_code == 200  # still usable


def test_a_ticket_never_reaches_the_access_log() -> None:
    from service.serving import gunicorn_conf

    ticket = "T1ck3t-s3cr3t_value-0123456789abcdefghijklmnop"
    logger = gunicorn_conf.EscapingLogger.__new__(gunicorn_conf.EscapingLogger)
    for query in (f"ticket={ticket}", f"after=3&ticket={ticket}", f"tick%65t={ticket}&after=1"):
        environ = {"REQUEST_METHOD": "GET", "RAW_URI": f"/v1/games/g/events/stream?{query}",
                   "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": "/v1/games/g/events/stream", "QUERY_STRING": query,
                   "HTTP_REFERER": f"http://x/v1/games/g/events/stream?{query}"}
        resp = SimpleNamespace(status="200 OK", sent=10, headers=[])
        atoms = logger.atoms(resp, SimpleNamespace(headers=[("Referer", environ["HTTP_REFERER"])]), environ,
                             SimpleNamespace(seconds=0, microseconds=5))
        assert not [k for k, v in atoms.items() if ticket in str(v)]
        assert "[redacted]" in atoms["q"] and "[redacted]" in atoms["r"]
        line = gunicorn_conf.access_log_format % atoms
        assert ticket not in line and "/events/stream" in line
    assert gunicorn_conf.redact("after=3&ticketless=1") == "after=3&ticketless=1"


def test_expires_at_is_a_utc_timestamp(client: FlaskClient) -> None:
    game = create(client)
    resp = client.post(f"/v1/games/{game['id']}/stream-tickets", headers=auth(game["seats"][0]["token"]))
    assert parse_timestamp(resp.get_json()["expires_at"]).tzinfo == UTC
    assert parse_timestamp(resp.get_json()["expires_at"]) > datetime.now(UTC)
