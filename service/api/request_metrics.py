"""Every answer counted by method, route and status, its time to the head
measured, and the event streams open (:mod:`service.adapters.prometheus`).

The route is the matched rule (``/v1/games/<game_id>/actions``), ``unmatched``
when none matched, so labels stay bounded whatever paths clients send."""

from __future__ import annotations

import functools
import time
from typing import Any

from flask import Flask, Response, request

from service.adapters.prometheus import REQUEST_SECONDS, REQUESTS, STREAMS_OPEN

#: the key of the request's start time in its WSGI environ
_STARTED = "cablecar.started"
#: the endpoint of the event stream (routes/games.py): open until its response is closed
STREAM_ENDPOINT = "games.stream_events"


def _start() -> None:
    request.environ.setdefault(_STARTED, time.perf_counter())  # (the action route may have started the clock)


@functools.lru_cache(maxsize=1024)
def _children(method: str, route: str, status: int) -> tuple[Any, Any]:
    """The counter and the histogram of one (method, route, status): labels are
    bounded (the route is the matched rule), and looking a child up costs
    more than counting in it."""
    return REQUESTS.labels(method, route, str(status)), REQUEST_SECONDS.labels(method, route)


def _count(resp: Response) -> Response:
    req = request._get_current_object()  # type: ignore[attr-defined]
    rule = req.url_rule
    count(req.method, rule.rule if rule is not None else "unmatched", resp.status_code, req.environ.get(_STARTED))
    if req.endpoint == STREAM_ENDPOINT and resp.status_code == 200 and resp.is_streamed:
        STREAMS_OPEN.inc()
        resp.call_on_close(STREAMS_OPEN.dec)
    return resp


def count(method: str, route: str, status: int, started: float | None) -> None:
    """Count one answer of ``route`` (its rule), timed from ``started`` (``time.perf_counter()``) when known."""
    counted, timed = _children(method, route, status)
    counted.inc()
    if started is not None:
        timed.observe(time.perf_counter() - started)


def mark_start(environ: dict[str, Any], started: float) -> None:
    """When a request began (before any hook ran): its answer is timed from then."""
    environ[_STARTED] = started


def install(app: Flask) -> None:
    """Count every request of ``app`` (installed first, so that a request another
    hook answers early is timed too)."""
    app.before_request(_start)
    app.after_request(_count)
