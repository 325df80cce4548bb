"""The refusals of the service layer: a stable problem ``code`` and a human
``detail`` each, no HTTP (``service.api.problems`` alone maps codes to statuses).

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


class NotStarted(ServiceError):
    """A scheduled game takes no action before its start (``starts_at`` says when)."""

    code = "not_started"


class IdempotencyKeyReused(ServiceError):
    """The Idempotency-Key was already used for a different request."""

    code = "idempotency_key_reused"


class IdempotencyKeyTooShort(ServiceError):
    """A creation key without an organiser token is shorter than a capability must be."""

    code = "idempotency_key_too_short"


class KeptChanging(ServiceError):
    """A compare-and-set kept losing to concurrent writers; retry."""

    code = "stale_version"


class RateLimited(ServiceError):
    """Too many requests from one client in the current window."""

    code = "rate_limited"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class StreamsBusy(ServiceError):
    """This worker already holds as many event streams as it may (in all, or
    for the caller's address); retry later."""

    code = "streams_busy"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class BotsUnavailable(ServiceError):
    """A new game would seat a server bot, but no bot runner has been alive
    for a lease period: nobody would play the seat, so nothing is created."""

    code = "bots_unavailable"
    #: seconds to wait before trying again: a runner's heartbeat period is at most this
    retry_after = 10


class LimitReached(ServiceError):
    """The caller already holds as many of something as it may (e.g. active
    webhooks per organiser); removing one makes room."""

    code = "limit_reached"


class BrokenGame(ServiceError):
    """A stored game that cannot be rebuilt (should never happen)."""

    code = "internal_error"


class GameDamaged(ServiceError):
    """A stored event of the game cannot be read, does not chain, or is not
    part of the game as recorded (tampering or corruption): nothing is written
    to the game (reads serve it up to the event before, saying
    ``damaged_from``) until an operator moves the bad tail aside (``cablecar
    quarantine``); ``/audit`` names the event."""

    code = "game_damaged"

    def __init__(self, game_id: str, seq: int) -> None:
        super().__init__(f"game {game_id} is damaged: its stored event seq {seq} is not genuine; "
                         f"GET /v1/games/{game_id}/audit reports it", game=game_id, seq=seq)
        self.game_id = game_id
        #: the first stored event of the game that is not genuine
        self.seq = seq


class StaleCursor(ServiceError):
    """A page cursor handed out at an older version of the game: the list it
    continued has changed (start again from the first page)."""

    code = "stale_cursor"
