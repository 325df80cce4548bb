"""Who is calling: a seat, the game's host, or a spectator."""

from __future__ import annotations

from dataclasses import dataclass

from flask import request

from events.store import EventStore, GameNotFound, GameRecord
from service import tokens
from service.problems import ApiError


@dataclass(frozen=True)
class Caller:
    """The caller of a game endpoint: ``seat`` is None for hosts and spectators."""

    seat: int | None = None
    host: bool = False

    @property
    def spectator(self) -> bool:
        """True when no token was presented."""
        return self.seat is None and not self.host


def _token_valid_for(record: GameRecord, token: str) -> tuple[int | None, bool] | None:
    meta = record.metadata
    for seat, stored in enumerate(meta.get("seat_token_hashes", [])):
        if tokens.matches(token, stored):
            return seat, False
    if tokens.matches(token, meta.get("host_token_hash")):
        return None, True
    return None


def game_caller(store: EventStore, record: GameRecord) -> Caller:
    """Resolve the ``Authorization`` header against ``record``.

    No header: a spectator.  A token of this game: its seat or host.  A valid
    token of another game: 403.  Anything else: 401."""
    header = request.headers.get("Authorization")
    if header is None:
        return Caller()
    token = tokens.bearer(header)
    parsed = tokens.parse(token) if token else None
    if parsed is None:
        raise ApiError(401, "unauthorized", "the Authorization header must be 'Bearer <seat or host token>'")
    if parsed.scope == record.game_id and parsed.kind in ("st", "ht"):
        found = _token_valid_for(record, parsed.raw)
        if found is not None:
            return Caller(seat=found[0], host=found[1])
        raise ApiError(401, "unauthorized", "this token is not valid for this game")
    if parsed.kind in ("st", "ht"):
        try:
            other = store.get_game(parsed.scope)
        except GameNotFound:
            other = None
        if other is not None and _token_valid_for(other, parsed.raw) is not None:
            raise ApiError(403, "forbidden", "this token belongs to another game")
    raise ApiError(401, "unauthorized", "this token is not valid for this game")


def require_seat(caller: Caller) -> int:
    """The caller's seat, or 401/403 when it has none."""
    if caller.seat is not None:
        return caller.seat
    if caller.host:
        raise ApiError(403, "forbidden", "a host token cannot act for a seat; use that seat's token")
    raise ApiError(401, "unauthorized", "a seat token is required: send 'Authorization: Bearer <seat token>'")
