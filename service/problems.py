"""The one error shape of the API: RFC 9457 problem+json.

Every refusal raised anywhere in a request (an :class:`ApiError`, a rules
:class:`~domain.errors.DomainError`, a store error, a marshmallow validation
error, a werkzeug HTTP error) is turned into
``{"type", "title", "status", "code", "detail", ...}`` by :func:`register`.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, json
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.errors import DomainError
from events.store import GameNotFound, InvalidCursor, StaleVersion, StoreUnavailable

log = logging.getLogger(__name__)

TITLES = {
    "invalid_request": "The request is malformed",
    "unauthorized": "A seat or organiser token is required",
    "forbidden": "This token does not give access here",
    "not_found": "Not found",
    "method_not_allowed": "Method not allowed",
    "not_acceptable": "Not acceptable",
    "not_your_turn": "It is not this seat's turn",
    "stale_version": "The game has moved on",
    "game_finished": "The game is finished",
    "game_not_finished": "The game is not finished yet",
    "illegal_action": "The rules forbid this action",
    "idempotency_key_reused": "This Idempotency-Key was used for another request",
    "invalid_config": "The game cannot be created like this",
    "rate_limited": "Too many requests",
    "unavailable": "The event store cannot be reached",
    "internal_error": "Internal server error",
    "payload_too_large": "The request body is too large",
    "unsupported_media_type": "The request body must be JSON",
}


class ApiError(Exception):
    """An error answer: HTTP ``status``, stable ``code``, human ``detail``."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra
        self.headers: dict[str, str] = {}


def problem(status: int, code: str, detail: str, **extra: Any) -> Response:
    """Build a problem+json response."""
    base = current_app.config.get("PROBLEM_BASE", "https://cablecar.dev/errors/")
    body: dict[str, Any] = {
        "type": f"{base}{code}",
        "title": TITLES.get(code, code.replace("_", " ").capitalize()),
        "status": status,
        "code": code,
        "detail": detail,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    resp = Response(json.dumps(body), status=status, mimetype="application/problem+json")
    return resp


_DOMAIN_STATUS = {"illegal_action": 422, "not_your_turn": 409, "game_finished": 409, "invalid_request": 400}


def from_domain(err: DomainError) -> ApiError:
    """Map a rules error to its API error."""
    if err.kind == "illegal_action":
        return ApiError(422, "illegal_action", err.detail, reason=err.code)
    if err.kind == "invalid_config":
        return ApiError(422, "invalid_config", err.detail, reason=err.code)
    if err.kind == "invalid_request":
        return ApiError(400, "invalid_request", err.detail, reason=err.code)
    return ApiError(_DOMAIN_STATUS.get(err.kind, 422), err.kind, err.detail)


def _flatten(messages: Any, prefix: str = "") -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            out.extend(_flatten(value, path))
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        out.extend({"field": prefix or "body", "message": m} for m in messages)
    elif isinstance(messages, list):
        for i, value in enumerate(messages):
            out.extend(_flatten(value, f"{prefix}[{i}]"))
    else:
        out.append({"field": prefix or "body", "message": str(messages)})
    return out


def register(app: Flask) -> None:
    """Install the error handlers that give every error the problem shape."""

    @app.errorhandler(ApiError)
    def _api_error(err: ApiError) -> Response:
        resp = problem(err.status, err.code, err.detail, **err.extra)
        for k, v in err.headers.items():
            resp.headers[k] = v
        return resp

    @app.errorhandler(DomainError)
    def _domain_error(err: DomainError) -> Response:
        return _api_error(from_domain(err))

    @app.errorhandler(ValidationError)
    def _validation(err: ValidationError) -> Response:
        errors = _flatten(err.messages)
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:5]) or "invalid request"
        return problem(400, "invalid_request", detail, errors=errors)

    @app.errorhandler(StaleVersion)
    def _stale(err: StaleVersion) -> Response:
        return problem(
            409,
            "stale_version",
            f"the game is at version {err.current}, not {err.expected}; reload and retry",
            current_version=err.current,
        )

    @app.errorhandler(GameNotFound)
    def _not_found(err: GameNotFound) -> Response:
        return problem(404, "not_found", f"no game with id {err.game_id!r}")

    @app.errorhandler(InvalidCursor)
    def _cursor(err: InvalidCursor) -> Response:
        return problem(400, "invalid_request", "cursor: not a cursor returned by this listing",
                       errors=[{"field": "cursor", "message": str(err)}])

    @app.errorhandler(StoreUnavailable)
    def _unavailable(err: StoreUnavailable) -> Response:
        log.warning("event store unavailable: %s", err)
        resp = problem(503, "unavailable", "the event store cannot be reached; nothing was written")
        resp.headers["Retry-After"] = "1"
        return resp

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Response:
        status = err.code or 500
        code = {
            400: "invalid_request",
            401: "unauthorized",
            403: "forbidden",
            404: "not_found",
            405: "method_not_allowed",
            406: "not_acceptable",
            413: "payload_too_large",
            415: "unsupported_media_type",
            429: "rate_limited",
        }.get(status, "internal_error" if status >= 500 else "invalid_request")
        detail = err.description or TITLES.get(code, code)
        resp = problem(status, code, detail)
        valid = getattr(err, "valid_methods", None)
        if status == 405 and valid:
            resp.headers["Allow"] = ", ".join(valid)
        return resp

    @app.errorhandler(Exception)
    def _unexpected(err: Exception) -> Response:
        log.exception("unhandled error")
        return problem(500, "internal_error", "an unexpected error occurred")
