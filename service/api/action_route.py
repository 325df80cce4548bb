"""``POST /v1/games/{id}/actions`` without Flask's request cycle, when the
request is plainly ordinary (issue 41).

An action is the hottest request, and Flask's cycle around it (a request
and an app context, routing, a werkzeug request and response, six hooks
through context-local proxies) cost about as much as the rules deciding it.
:class:`ActionRoute` wraps the app's ``wsgi_app`` and answers an action
itself when nothing about the request needs Flask: a POST to exactly that
path, no query, a JSON body with a length within the app's limit, no
control character anywhere, no CORS and no general rate limit configured.
It reads the body, checks it as the edge does, builds the same
:class:`~service.usecases.commands.ActionRequest`, acts through the same
``commands.act`` and answers with the same body and headers, made by the
same functions the hooks use (:func:`~service.api.routes.edge.protective_headers`,
:func:`~service.api.request_metrics.count`, the route's ``RateLimit-Policy``).

Anything else goes to Flask untouched, and so does every refusal: a body
the edge would refuse is handed on before anything is done, and an action
refused by ``act`` (a token, a version, a rule) is handed on with its
refusal in the environ (:data:`~service.api.routes.games.REFUSED_ACTION`),
which the Flask view raises at once instead of acting again: the answer is
the one problem+json mapping's, with every hook, and nothing runs twice.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

from flask import Flask

from service.api import request_metrics
from service.api.jsonprovider import OrjsonProvider
from service.api.ratelimit import limits
from service.api.routes.edge import check_json, headers_have_control_characters, protective_headers
from service.api.routes.games import REFUSED_ACTION, action_request
from service.api.runtime import Runtime
from service.api.schemas import fastdump
from service.api.text import has_control_characters

StartResponse = Callable[..., Any]

#: the path of the action route, as Flask's rule ``/v1/games/<game_id>/actions`` matches it
_PATH = re.compile(r"/v1/games/([^/]+)/actions")
#: the rule and the endpoint, as metrics and rate limits name them
RULE, ENDPOINT = "/v1/games/<game_id>/actions", "games.post_action"
#: the environ of the action being answered here (for the request id of log lines written meanwhile)
SERVING: ContextVar[dict[str, Any] | None] = ContextVar("cablecar_action_route", default=None)
#: the content types answered here (what Flask's ``request.mimetype`` reads as JSON: more goes to Flask)
_JSON = ("application/json", "application/json; charset=utf-8")


class ActionRoute:
    """WSGI: actions answered here when plainly ordinary, everything else by
    ``flask`` (the app's own ``wsgi_app``); see the module docs."""

    def __init__(self, app: Flask, flask: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.flask = flask
        rt = app.extensions["cablecar"]
        assert isinstance(rt, Runtime) and isinstance(app.json, OrjsonProvider)
        self._runtime, self._json = rt, app.json
        self._max_length = int(app.config["MAX_CONTENT_LENGTH"])
        rate_limits = limits(app)
        # a general limit counts every request in a hook, CORS answers depend on the Origin: Flask's then
        self._enabled = rate_limits.general is None and not rt.settings.cors_origins.strip()
        self._policy = rate_limits.route_policy_header(ENDPOINT, RULE)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        game_id = self._plain(environ)
        if game_id is None:
            return self.flask(environ, start_response)
        started = time.perf_counter()
        request_metrics.mark_start(environ, started)
        length = int(environ["CONTENT_LENGTH"])
        raw = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(raw)  # for Flask, if it answers after all
        if len(raw) != length:
            return self.flask(environ, start_response)
        try:
            body = self._json.loads(raw)
            check_json(body)
        except Exception:  # the edge's refusal, made by Flask (nothing was done)
            return self.flask(environ, start_response)
        request = action_request(environ.get("HTTP_AUTHORIZATION"), environ.get("HTTP_IDEMPOTENCY_KEY"),
                                 lambda: body)
        serving = SERVING.set(environ)
        try:
            outcome = self._runtime.commands.act(game_id, request)
            payload = self._json.answer_bytes(
                fastdump.action_result(outcome.version, outcome.events, outcome.replayed))
        except Exception as refused:  # answered by Flask's mapping, as if its view had raised it
            environ[REFUSED_ACTION] = refused
            return self.flask(environ, start_response)
        finally:
            SERVING.reset(serving)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))]
        if self._policy:
            headers.append(("RateLimit-Policy", self._policy))
        headers.extend(protective_headers(environ, ENDPOINT, 201, lambda name: None))
        request_metrics.count("POST", RULE, 201, started)
        start_response("201 CREATED", headers)
        return [payload]

    def _plain(self, environ: dict[str, Any]) -> str | None:
        """The game id of a plainly ordinary action request, else None."""
        if not self._enabled or environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING"):
            return None
        match = _PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or not match.group(1).isascii() or environ.get("CONTENT_TYPE", "").lower() not in _JSON:
            return None
        length = environ.get("CONTENT_LENGTH", "")
        if not (length.isdigit() and 0 < int(length) <= self._max_length) or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        if has_control_characters(environ["PATH_INFO"]) or headers_have_control_characters(environ):
            return None
        return match.group(1)


def install(app: Flask) -> None:
    """Answer plainly ordinary actions of ``app`` with an :class:`ActionRoute`
    (after every hook and route is registered: it reads the rate limits)."""
    app.wsgi_app = ActionRoute(app, app.wsgi_app)  # type: ignore[method-assign]
