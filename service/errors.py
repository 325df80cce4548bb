"""The refusals of the service layer: a stable problem ``code`` and a human
``detail`` each, no HTTP (``service.problems`` alone maps codes to statuses).

``extra`` holds further fields of the answer (``reason``, ``table``,
``current_version``, ``errors``).
"""

from __future__ import annotations

from typing import Any, ClassVar


class ServiceError(Exception):
    """Base of every refusal the service raises."""

    code: ClassVar[str] = "internal_error"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    def with_detail(self, detail: str, **extra: Any) -> ServiceError:
        """The same refusal with another detail and more fields (e.g. naming
        the table of a batch it came from)."""
        return type(self)(detail, **{**self.extra, **extra})


class InvalidRequest(ServiceError):
    """The request is malformed (a field, a header, a query parameter)."""

    code = "invalid_request"


class UnsupportedMediaType(ServiceError):
    """A request body that is not declared as JSON (``Content-Type``)."""

    code = "unsupported_media_type"


class Unauthorized(ServiceError):
    """No token where one is required, or a token that is not genuine."""

    code = "unauthorized"


class Forbidden(ServiceError):
    """A genuine token whose scope does not reach here."""

    code = "forbidden"


class NotFound(ServiceError):
    """No such game, game type, seat, batch, webhook or file."""

    code = "not_found"


class InvalidConfig(ServiceError):
    """A game cannot be set up like this (``reason`` names the rule)."""

    code = "invalid_config"


class GameNotFinished(ServiceError):
    """Only a finished game may be exported (the seed is revealed then)."""

    code = "game_not_finished"


class IdempotencyKeyReused(ServiceError):
    """The Idempotency-Key was already used for a different request."""

    code = "idempotency_key_reused"


class KeptChanging(ServiceError):
    """A compare-and-set kept losing to concurrent writers; retry."""

    code = "stale_version"


class RateLimited(ServiceError):
    """Too many requests from one client in the current window."""

    code = "rate_limited"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class BrokenGame(ServiceError):
    """A stored game that cannot be rebuilt (should never happen)."""

    code = "internal_error"
