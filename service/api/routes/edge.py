"""The HTTP edge, the same for every route: what is read from a request (the
JSON body, the ``Authorization`` header), what no request may carry
(control characters, lone surrogates, deep nesting), and the headers every
answer gets."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, request

from service.adapters.idempotency import CreationKey, check_key, request_hash
from service.adapters.secret_key import creation_secret
from service.api.text import has_control_characters, header_has_control_characters
from service.config import Settings
from service.errors import InvalidRequest, UnsupportedMediaType

#: The deepest JSON body accepted; real bodies (a batch) are 5 levels deep,
#: and a bound here keeps any recursive code downstream far from its limit.
MAX_JSON_DEPTH = 32

#: Answers that carry a secret (seat, host, organiser tokens, a webhook's
#: signing secret), which no cache may keep.
SECRET_ENDPOINTS = frozenset({
    "games.create_game",
    "batches.create_batch",
    "organisers.create_organiser",
    "webhooks.create_webhook",
    "seats.rotate_token",
})

_CONTROLS = "must not contain control characters or lone surrogates"


def json_body() -> Any:
    """The request body parsed as JSON: InvalidRequest when there is none, it
    is not JSON, is nested too deeply or holds a string no field may hold;
    UnsupportedMediaType when it is not sent as JSON (a web page can send
    ``text/plain`` or a form to another site without a CORS preflight)."""
    raw = request.get_data(cache=True, parse_form_data=False)
    if not raw:
        raise InvalidRequest("a JSON body is required")
    mimetype = request.mimetype
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        sent = f"not {mimetype!r}" if mimetype else "and this request had no Content-Type header"
        raise UnsupportedMediaType(f"the body must be sent as Content-Type: application/json, {sent}")
    try:
        body = request.get_json(force=True)
    except RecursionError as e:
        raise _nested_too_deeply("body") from e
    except Exception as e:
        raise InvalidRequest("the body is not valid JSON") from e
    check_json(body)
    return body


def empty_body() -> None:
    """For an operation that takes no fields: no body, or the empty object
    ``{}`` (what generated clients send); anything else is InvalidRequest, so
    that a client that thinks it is sending something learns it is not."""
    if not request.get_data(cache=True, parse_form_data=False):
        return
    if json_body() != {}:
        raise InvalidRequest("this operation takes no fields: send no body, or {}",
                             errors=[{"field": "body", "message": "must be {} or absent"}])


def _nested_too_deeply(field: str) -> InvalidRequest:
    message = f"must not be nested more than {MAX_JSON_DEPTH} levels deep"
    return InvalidRequest(f"{field}: {message}", errors=[{"field": field, "message": message}])


def check_json(body: Any) -> None:
    """Refuse a body nested deeper than MAX_JSON_DEPTH, or with a key or
    string holding a control character (no field takes one: NUL cannot be
    stored, a lone surrogate cannot be encoded).  Iterative, so any depth
    the parser allowed is safe here."""
    pending: list[tuple[Any, str, int]] = [(body, "body", 1)]
    while pending:
        value, field, depth = pending.pop()
        if isinstance(value, str):
            if has_control_characters(value):
                raise InvalidRequest(f"{field}: {_CONTROLS}", errors=[{"field": field, "message": _CONTROLS}])
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_JSON_DEPTH:
            raise _nested_too_deeply(field)
        prefix = "" if field == "body" else field
        if isinstance(value, list):
            pending.extend((item, f"{prefix}[{i}]", depth + 1) for i, item in enumerate(value))
            continue
        for key, item in value.items():
            if has_control_characters(key):
                message = f"keys {_CONTROLS}"
                raise InvalidRequest(f"{field}: {message}", errors=[{"field": field, "message": message}])
            pending.append((item, f"{prefix}.{key}" if prefix else key, depth + 1))


def creation_key(settings: Settings, kind: str, body: Any, scope: str) -> CreationKey | None:
    """The ``Idempotency-Key`` of a creating POST, bound to its scope (the
    organiser, or ``""``: then the key must be long enough to be a secret)
    and to ``body`` as the server read it; None without one
    (:mod:`service.adapters.idempotency`)."""
    key = check_key(request.headers.get("Idempotency-Key"), anonymous=not scope)
    if key is None:
        return None
    return CreationKey(creation_secret(settings), scope, key, request_hash(kind, body))


def authorization() -> str | None:
    """The ``Authorization`` header, as sent (``service.usecases.auth`` reads it)."""
    return request.headers.get("Authorization")


def _refuse_control_characters() -> None:
    """No path, query parameter or header may hold a control character (NUL
    cannot even reach PostgreSQL; a newline would forge log lines)."""
    if has_control_characters(request.path):
        raise InvalidRequest(f"the path {_CONTROLS}", errors=[{"field": "path", "message": _CONTROLS}])
    environ = request.environ
    if environ.get("QUERY_STRING"):
        for name, value in request.args.items(multi=True):
            if has_control_characters(name) or has_control_characters(value):
                field = "query" if has_control_characters(name) else name
                raise InvalidRequest(f"{field}: {_CONTROLS}", errors=[{"field": field, "message": _CONTROLS}])
    if headers_have_control_characters(environ):
        for name, value in request.headers.items():
            if header_has_control_characters(value):
                raise InvalidRequest(f"header {name}: {_CONTROLS}", errors=[{"field": name, "message": _CONTROLS}])


def headers_have_control_characters(environ: dict[str, Any]) -> bool:
    """Whether a request header holds a control character (a tab aside).
    Every request passes here: the values are read straight from the environ
    (what request.headers would yield, without building it) and searched at
    once, joined by a tab (the one control a header may hold)."""
    values = [v for k, v in environ.items() if k.startswith(_HEADER_KEYS) and isinstance(v, str)]
    return header_has_control_characters("\t".join(values))


#: the environ keys of request headers (as werkzeug's EnvironHeaders reads them)
_HEADER_KEYS = ("HTTP_", "CONTENT_TYPE", "CONTENT_LENGTH")


#: the longest client ``X-Request-Id`` kept; a longer one is replaced by a fresh id
MAX_REQUEST_ID = 128
_REQUEST_ID_KEY = "cablecar.request_id"


def _well_formed_id(value: str | None) -> bool:
    return value is not None and 0 < len(value) <= MAX_REQUEST_ID and all("!" <= c <= "~" for c in value)


def request_id(environ: dict[str, Any] | None = None) -> str:
    """This request's id: the client's ``X-Request-Id`` when well formed (1 to
    MAX_REQUEST_ID visible ASCII characters), else a fresh random one; never a
    refusal.  Made once per request (kept in its environ: ``environ``, or the
    current request's)."""
    environ = request.environ if environ is None else environ
    rid = environ.get(_REQUEST_ID_KEY)
    if rid is None:
        sent = environ.get("HTTP_X_REQUEST_ID")
        rid = sent if _well_formed_id(sent) else secrets.token_hex(16)
        environ[_REQUEST_ID_KEY] = rid
    return str(rid)


def _protect(resp: Response) -> Response:
    """Every answer's protective headers (:func:`protective_headers`), set
    (an answer has few headers: the names it has are read once, the ones it
    lacks are added, where werkzeug's set() scans them for each name)."""
    req = request._get_current_object()  # type: ignore[attr-defined]  # (one context lookup, not ten)
    headers = resp.headers
    present = {name.lower() for name, _ in headers.items()}
    added: list[tuple[str, str]] = []
    for name, value in protective_headers(req.environ, req.endpoint, resp.status_code, headers.get):
        if name.lower() in present:
            headers[name] = value
        else:
            added.append((name, value))
    headers.extend(added)
    return resp


def protective_headers(
    environ: dict[str, Any], endpoint: str | None, status: int, current: Callable[[str], str | None]
) -> list[tuple[str, str]]:
    """The headers every answer gets (``current``: the value an answer's own
    header has, or None): no content sniffing, no framing by another site, no
    caching of an answer that carries a secret, no shared caching of an answer
    to a token (unless it is immutable, the same for anyone), the request's
    id, and the challenge of a 401."""
    out = [("X-Request-Id", request_id(environ)), ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY")]
    if current("Content-Security-Policy") is None:
        out.append(("Content-Security-Policy", "frame-ancestors 'none'"))
    if endpoint in SECRET_ENDPOINTS:
        out.append(("Cache-Control", "no-store"))
    elif "HTTP_AUTHORIZATION" in environ:
        # What a token sees is that token's: a shared cache must not keep it
        # for the next caller (RFC 9111 section 5.2.2.7).
        cached = current("Cache-Control")
        if cached is None:
            out.append(("Cache-Control", "private, no-cache"))
        elif not any(word in cached for word in ("private", "no-store", "immutable")):
            # (an immutable answer is the same whoever asks: a board, a finished game's export)
            out.append(("Cache-Control", f"private, {cached}"))
    if status == 401:
        # RFC 9110 section 11.6.1: a 401 names the scheme it wants.
        out.append(("WWW-Authenticate", f'Bearer realm="{REALM}"'))
    return out


#: the realm named by ``WWW-Authenticate`` on a 401
REALM = "cablecar"

#: what a cross-origin page may send and read (CORS, when origins are allowed)
CORS_METHODS = "GET, POST, DELETE, OPTIONS"
CORS_REQUEST_HEADERS = (
    "Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID, Accept, X-Request-Id"
)
CORS_EXPOSED_HEADERS = (
    "ETag, Location, Retry-After, X-Request-Id, RateLimit-Policy, RateLimit, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate"
)
#: how long a browser may keep a preflight's answer (seconds)
CORS_MAX_AGE = "600"


def cors_origins(setting: str) -> frozenset[str]:
    """The origins ``CABLECAR_CORS_ORIGINS`` allows (``*`` for any); empty: CORS is off."""
    return frozenset(o.strip().rstrip("/") for o in setting.split(",") if o.strip())


class _Cors:
    """CORS for the origins allowed: preflights answered before any route
    (they carry no token), the allowing headers on every answer to an
    allowed origin.  Tokens travel in ``Authorization``, never in cookies,
    so credentials are not allowed and ``*`` is safe to send."""

    def __init__(self, origins: frozenset[str]) -> None:
        self.origins = origins

    def _allowed(self) -> str | None:
        origin = request.headers.get("Origin")
        if origin is None:
            return None
        if "*" in self.origins:
            return "*"
        return origin if origin.rstrip("/") in self.origins else None

    def preflight(self) -> Response | None:
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        resp = Response(status=204)
        if self._allowed() is not None:
            resp.headers["Access-Control-Allow-Methods"] = CORS_METHODS
            resp.headers["Access-Control-Allow-Headers"] = CORS_REQUEST_HEADERS
            resp.headers["Access-Control-Max-Age"] = CORS_MAX_AGE
        return resp

    def headers(self, resp: Response) -> Response:
        allowed = self._allowed()
        if allowed is not None:
            resp.headers["Access-Control-Allow-Origin"] = allowed
            resp.headers["Access-Control-Expose-Headers"] = CORS_EXPOSED_HEADERS
        if allowed != "*":
            resp.vary.add("Origin")
        return resp


def install(app: Flask, cors: str = "") -> None:
    """Check every request's path, query and headers before its route runs,
    and give every answer (errors included) the protective headers; with
    ``cors`` origins (``CABLECAR_CORS_ORIGINS``), answer CORS preflights and
    let those origins read the answers."""
    origins = cors_origins(cors)
    if origins:
        policy = _Cors(origins)
        app.before_request(policy.preflight)
        app.after_request(policy.headers)
    app.before_request(_refuse_control_characters)
    app.after_request(_protect)
