"""Every answer counted by method, route and status, its time to the head
measured, and the event streams open (:mod:`service.adapters.metrics`).

The route is the matched rule (``/v1/games/<game_id>/actions``), ``unmatched``
when none matched, so labels stay bounded whatever paths clients send."""

from __future__ import annotations

import time

from flask import Flask, Response, request

from service.adapters.metrics import REQUEST_SECONDS, REQUESTS, STREAMS_OPEN

#: the key of the request's start time in its WSGI environ
_STARTED = "cablecar.started"
#: the endpoint of the event stream (routes/games.py): open until its response is closed
STREAM_ENDPOINT = "games.stream_events"


def _start() -> None:
    request.environ[_STARTED] = time.perf_counter()


def _count(resp: Response) -> Response:
    rule = request.url_rule
    route = rule.rule if rule is not None else "unmatched"
    REQUESTS.labels(request.method, route, str(resp.status_code)).inc()
    started = request.environ.get(_STARTED)
    if started is not None:
        REQUEST_SECONDS.labels(request.method, route).observe(time.perf_counter() - started)
    if request.endpoint == STREAM_ENDPOINT and resp.status_code == 200 and resp.is_streamed:
        STREAMS_OPEN.inc()
        resp.call_on_close(STREAMS_OPEN.dec)
    return resp


def install(app: Flask) -> None:
    """Count every request of ``app`` (installed first, so that a request another
    hook answers early is timed too)."""
    app.before_request(_start)
    app.after_request(_count)
