"""The one error shape of the API: RFC 9457 problem+json.

Every refusal raised anywhere in a request (a service
:class:`~service.errors.ServiceError`, a rules
:class:`~domain.errors.DomainError`, a store error, a marshmallow validation
error, a werkzeug HTTP error) is turned into
``{"type", "title", "status", "code", "detail", ...}`` by :func:`register`.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.errors import DomainError
from events.records import GameNotFound, InvalidCursor, OutcomeUnknown, StaleVersion, StoreUnavailable
from service.adapters.prometheus import PROBLEMS
from service.api.routes.edge import request_id
from service.api.text import json_text
from service.errors import BotsUnavailable, RateLimited, ServiceError, StreamsBusy

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
    "stale_cursor": "The list this cursor continued has changed",
    "game_finished": "The game is finished",
    "game_not_finished": "The game is not finished yet",
    "not_started": "The game has not started yet",
    "game_damaged": "The game's stored record is damaged",
    "illegal_action": "The rules forbid this action",
    "idempotency_key_reused": "This Idempotency-Key was used for another request",
    "idempotency_key_too_short": "This Idempotency-Key is too short to be a secret",
    "invalid_config": "The game cannot be created like this",
    "rate_limited": "Too many requests",
    "streams_busy": "Too many open event streams",
    "limit_reached": "A limit on what one caller may hold is reached",
    "bots_unavailable": "No bot runner is playing the server's bot seats",
    "unavailable": "The event store cannot be reached",
    "internal_error": "Internal server error",
    "payload_too_large": "The request body is too large",
    "unsupported_media_type": "The request body must be JSON",
}


def problem(status: int, code: str, detail: str, **extra: Any) -> Response:
    """Build a problem+json response."""
    base = current_app.config.get("PROBLEM_BASE", "https://cablecar.dev/errors/")
    body: dict[str, Any] = {
        "type": f"{base}{code}",
        "title": TITLES.get(code, code.replace("_", " ").capitalize()),
        "status": status,
        "code": code,
        "detail": detail,
        "request_id": request_id(),
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    resp = Response(json_text(body), status=status, mimetype="application/problem+json")
    PROBLEMS.labels(code).inc()
    return resp


#: the HTTP status of every problem code (the service and the rules know codes only)
STATUS = {
    "invalid_request": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "not_your_turn": 409,
    "stale_version": 409,
    "stale_cursor": 409,
    "game_finished": 409,
    "game_not_finished": 409,
    "not_started": 409,
    "game_damaged": 409,
    "illegal_action": 422,
    "invalid_config": 422,
    "idempotency_key_reused": 422,
    "idempotency_key_too_short": 400,
    "unsupported_media_type": 415,
    "rate_limited": 429,
    "streams_busy": 503,
    "bots_unavailable": 503,
    "limit_reached": 409,
    "internal_error": 500,
}

#: rules errors whose answer names the broken rule in ``reason``
_WITH_REASON = ("illegal_action", "invalid_config", "invalid_request")


def service_problem(err: ServiceError) -> Response:
    """The answer to a refusal of the service."""
    resp = problem(STATUS[err.code], err.code, err.detail, **err.extra)
    if isinstance(err, RateLimited | StreamsBusy | BotsUnavailable):
        resp.headers["Retry-After"] = str(err.retry_after)
    return resp


def domain_problem(err: DomainError) -> Response:
    """The answer to a refusal of the rules."""
    reason = err.code if err.kind in _WITH_REASON else None
    return problem(STATUS.get(err.kind, 422), err.kind, err.detail, reason=reason)


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

    app.register_error_handler(ServiceError, service_problem)
    app.register_error_handler(DomainError, domain_problem)

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
        if isinstance(err, OutcomeUnknown):
            # The write may be stored: "nothing was written" would be a lie, and a
            # blind retry without the key could apply it twice.
            resp = problem(
                503, "unavailable",
                "the event store failed after the write was sent: it may or may not have been stored; "
                "send the same request again with the same Idempotency-Key to get its outcome "
                "(without a key, read the game before sending it again)",
                outcome="unknown",
            )
        elif request.method not in ("GET", "HEAD") and request.headers.get("Idempotency-Key"):
            # True of this request, but a client retrying may take it for the fate of its first try.
            resp = problem(
                503, "unavailable",
                "the event store cannot be reached; this request wrote nothing, but an earlier one with "
                "the same Idempotency-Key may have been stored: retry with that key to get its outcome",
            )
        else:
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
