"""The action route (service/api/action_route.py) answers exactly as Flask's
cycle does: two games with the same deal get the same requests, one through
the app as served (the action route first), the other through Flask's own
``wsgi_app``; every answer (status, headers, body but for what differs
between two games) is the same, the ordinary ones were answered without
Flask, and nothing was applied twice."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import EnvironBuilder, run_wsgi_app

from service.api.action_route import ActionRoute
from tests.api.conftest import auth, create, legal

#: what differs between two games given the same requests (ids, times, hashes, signatures)
_PER_GAME = {"game_id", "recorded_at", "hash", "prev_hash", "signature", "key_id", "request_id", "instance"}


def _answer(wsgi: Any, path: str, body: bytes | None, headers: dict[str, str], **kw: Any) -> tuple[Any, ...]:
    builder = EnvironBuilder(path=path, method=kw.pop("method", "POST"), data=body, headers=list(headers.items()),
                             content_type=kw.pop("content_type", "application/json"), **kw)
    environ = builder.get_environ()
    app_iter, status, answer_headers = run_wsgi_app(wsgi, environ)
    data = b"".join(app_iter)
    return status, list(answer_headers.items()), data


def _types(client: FlaskClient, game: dict[str, Any]) -> list[str]:
    resp = client.get(f"/v1/games/{game['id']}/events?limit=500")
    assert resp.status_code == 200
    return [e["type"] for e in resp.get_json()["events"]]


def _scrub(value: Any, game_id: str) -> Any:
    if isinstance(value, dict):
        return {k: _scrub(v, game_id) for k, v in value.items() if k not in _PER_GAME}
    if isinstance(value, list):
        return [_scrub(v, game_id) for v in value]
    return value.replace(game_id, "<game>") if isinstance(value, str) else value


def _same(served: tuple[Any, ...], flask: tuple[Any, ...], games: tuple[dict[str, Any], dict[str, Any]]) -> None:
    assert served[0] == flask[0]
    assert served[1] == flask[1]  # every header, in order (the request id is the client's)
    left, right = json.loads(served[2]), json.loads(flask[2])
    assert _scrub(left, games[0]["id"]) == _scrub(right, games[1]["id"])


@pytest.fixture
def two(client: FlaskClient) -> tuple[dict[str, Any], dict[str, Any]]:
    return (create(client, seed="route", open_deal=True), create(client, seed="route", open_deal=True))


def test_every_kind_of_action_request_is_answered_as_flask_answers_it(
    app: Flask, client: FlaskClient, two: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    route = app.wsgi_app
    assert isinstance(route, ActionRoute)
    flask_calls: list[str] = []
    flask = route.flask

    def counted(environ: dict[str, Any], start_response: Any) -> Any:
        flask_calls.append(environ["PATH_INFO"])
        return flask(environ, start_response)

    route.flask = counted
    seat = 0
    first = legal(client, two[0], seat)[0]
    token = [g["seats"][seat]["token"] for g in two]

    def both(body: bytes | None, headers: dict[str, str] | None = None, own_token: bool = True,
             **kw: Any) -> tuple[Any, ...]:
        answers = []
        for i, (wsgi, game) in enumerate(((route, two[0]), (flask, two[1]))):
            sent = {"X-Request-Id": "req-1", **({"Authorization": f"Bearer {token[i]}"} if own_token else {}),
                    **(headers or {})}
            answers.append(_answer(wsgi, f"/v1/games/{game['id']}/actions", body, sent, **kw))
        _same(answers[0], answers[1], two)
        return answers[0]

    ordinary = json.dumps({**first, "expected_version": 8}).encode()
    flask_calls.clear()
    done = both(ordinary, {"Idempotency-Key": "k-1"})
    assert done[0] == "201 CREATED" and flask_calls == []  # answered without Flask
    again = both(ordinary, {"Idempotency-Key": "k-1"})  # the same key: the first answer again
    assert again[0] == "201 CREATED" and json.loads(again[2])["replayed"] and flask_calls == []
    refusals = [
        both(ordinary, {"Idempotency-Key": "k-2"}),  # a stale version
        both(ordinary, own_token=False),  # no token
        both(ordinary, {"Authorization": "Bearer nope"}),  # a wrong one
        both(json.dumps({"type": "no-such-move"}).encode()),  # not a move
        both(b"{not json"),
        both(json.dumps({"type": "x\u0000"}).encode()),  # a control character in the body
        both(json.dumps({**first, "expected_version": "8"}).encode()),
        both(ordinary, {"Idempotency-Key": "k" * 300}),
        both(ordinary, content_type="text/plain"),
        both(b"[" * 40 + b"]" * 40),  # nested too deeply
        both(b"{}" + b" " * 70_000),  # over the app's limit
    ]
    assert [r[0][:3] for r in refusals] == ["409", "401", "401", "400", "400", "400", "400", "400", "415", "400",
                                           "413"]
    assert all(dict(r[1])["Content-Type"] == "application/problem+json" for r in refusals)
    assert len(flask_calls) == len(refusals)  # each refusal answered by Flask's mapping
    # what the action route leaves to Flask from the start: answered the same as well
    later = legal(client, two[0], 1)[0]
    both(json.dumps(later).encode(), {"Origin": "https://example.org"}, query_string="x=1")
    assert _types(client, two[0]) == _types(client, two[1])


def test_an_action_refused_by_the_rules_is_not_tried_twice(
    app: Flask, client: FlaskClient, two: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    rt = app.extensions["cablecar"]
    tried: list[str] = []
    act = rt.commands.act

    def counting(game_id: str, request: Any) -> Any:
        tried.append(game_id)
        return act(game_id, request)

    rt.commands.act = counting
    resp = client.post(f"/v1/games/{two[0]['id']}/actions", json={"type": "no-such-move"},
                       headers=auth(two[0]["seats"][0]["token"]))
    assert resp.status_code == 400 and resp.mimetype == "application/problem+json"
    assert tried == [two[0]["id"]]


def test_an_action_answered_by_the_route_is_counted_and_its_log_lines_carry_its_request_id(
    app: Flask, client: FlaskClient, two: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    import logging

    from prometheus_client import REGISTRY

    from service.serving.jsonlog import JsonFormatter

    rt = app.extensions["cablecar"]
    lines: list[dict[str, Any]] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(json.loads(JsonFormatter().format(record)))  # type: ignore[method-assign]
    logger = logging.getLogger("cablecar.test-action-route")
    logger.addHandler(handler)
    act = rt.commands.act

    def logging_act(game_id: str, request: Any) -> Any:
        logger.warning("acting on %s", game_id)
        return act(game_id, request)

    rt.commands.act = logging_act

    def counted() -> tuple[float, float]:
        route = {"method": "POST", "route": "/v1/games/<game_id>/actions"}
        return (REGISTRY.get_sample_value("cablecar_http_requests_total", {**route, "status": "201"}) or 0.0,
                REGISTRY.get_sample_value("cablecar_http_request_duration_seconds_count", route) or 0.0)

    before = counted()
    body = legal(client, two[0], 0)[0]
    try:
        # (inside another request's context, as a worker thread could be: the action's own id is the one logged)
        with app.test_request_context("/elsewhere", headers={"X-Request-Id": "req-other"}):
            resp = client.post(f"/v1/games/{two[0]['id']}/actions", json=body,
                               headers={**auth(two[0]["seats"][0]["token"]), "X-Request-Id": "req-route-7"})
    finally:
        logger.removeHandler(handler)
    assert resp.status_code == 201 and resp.headers["X-Request-Id"] == "req-route-7"
    after = counted()
    assert after == (before[0] + 1, before[1] + 1)  # counted and timed, as the Flask hooks do
    assert [(line["message"], line.get("request_id")) for line in lines] == [
        (f"acting on {two[0]['id']}", "req-route-7")]
