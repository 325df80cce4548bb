"""What every route reads from a request the same way: the JSON body and
the ``Authorization`` header."""

from __future__ import annotations

from typing import Any

from flask import request

from service.errors import InvalidRequest


def json_body() -> Any:
    """The request body parsed as JSON, or InvalidRequest."""
    if not request.data:
        raise InvalidRequest("a JSON body is required")
    try:
        return request.get_json(force=True)
    except Exception as e:
        raise InvalidRequest("the body is not valid JSON") from e


def authorization() -> str | None:
    """The ``Authorization`` header, as sent (``service.auth`` reads it)."""
    return request.headers.get("Authorization")
