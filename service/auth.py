"""Who is calling: a seat, the game's host, its organiser, or a spectator.

Token scopes (``service.tokens``): a seat token acts for its seat; a host
token manages its game (it reads like a spectator and may rotate a lost seat
token); an organiser token creates batches, registers webhooks and reads its
own games like a spectator; no token is a spectator.  A token that is not
genuine is 401; a genuine token used where its scope does not reach is 403.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import request

from events.database import Database
from events.store import EventStore, GameNotFound, GameRecord
from events.tournaments import OrganiserRecord, TournamentStore
from service import tokens
from service.problems import ApiError


@dataclass(frozen=True)
class Caller:
    """The caller of a game endpoint: ``seat`` is None for hosts, the game's
    organiser and spectators."""

    seat: int | None = None
    host: bool = False
    organiser: bool = False

    @property
    def spectator(self) -> bool:
        """True when no token was presented."""
        return self.seat is None and not self.host and not self.organiser


def _token_valid_for(record: GameRecord, token: str) -> tuple[int | None, bool] | None:
    meta = record.metadata
    for seat, stored in enumerate(meta.get("seat_token_hashes", [])):
        if tokens.matches(token, stored):
            return seat, False
    if tokens.matches(token, meta.get("host_token_hash")):
        return None, True
    return None


def game_caller(store: Database, record: GameRecord) -> Caller:
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
    if parsed.kind == "ot":
        organiser = organiser_of_token(store, parsed)
        if organiser is None:
            raise ApiError(401, "unauthorized", "this organiser token is not valid")
        if record.metadata.get("organiser") == organiser.organiser_id:
            return Caller(organiser=True)
        raise ApiError(403, "forbidden", "this game was not created with this organiser token")
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
    if caller.organiser:
        raise ApiError(403, "forbidden", "an organiser token cannot act for a seat; use that seat's token")
    raise ApiError(401, "unauthorized", "a seat token is required: send 'Authorization: Bearer <seat token>'")


def require_host(caller: Caller) -> None:
    """Pass for the game's host token; 401 without a token, 403 for any other."""
    if caller.host:
        return
    if caller.spectator:
        raise ApiError(
            401, "unauthorized", "a host token is required: send 'Authorization: Bearer <host token>'"
        )
    raise ApiError(403, "forbidden", "only the game's host token may manage the game")


def organiser_of_token(store: TournamentStore, parsed: tokens.ParsedToken) -> OrganiserRecord | None:
    """The organiser a presented ``ot`` token belongs to, if it is genuine."""
    if parsed.kind != "ot":
        return None
    organiser = store.get_organiser(parsed.scope)
    if organiser is None or not tokens.matches(parsed.raw, organiser.token_hash):
        return None
    return organiser


def _genuine_game_token(store: EventStore, parsed: tokens.ParsedToken) -> bool:
    if parsed.kind not in ("st", "ht"):
        return False
    try:
        record = store.get_game(parsed.scope)
    except GameNotFound:
        return False
    return _token_valid_for(record, parsed.raw) is not None


def organiser_caller(store: Database) -> OrganiserRecord:
    """The organiser whose token the ``Authorization`` header holds.

    No header, a malformed or a wrong token: 401.  A genuine seat or host
    token: 403 (it is valid, but its scope is one game)."""
    token = tokens.bearer(request.headers.get("Authorization"))
    parsed = tokens.parse(token) if token else None
    if parsed is None:
        raise ApiError(
            401,
            "unauthorized",
            "an organiser token is required: send 'Authorization: Bearer <organiser token>'",
        )
    organiser = organiser_of_token(store, parsed)
    if organiser is not None:
        return organiser
    if _genuine_game_token(store, parsed):
        raise ApiError(403, "forbidden", "a seat or host token cannot do this; use an organiser token")
    raise ApiError(401, "unauthorized", "this token is not a valid organiser token")


def optional_organiser(store: TournamentStore) -> OrganiserRecord | None:
    """For creating a game: the organiser of an organiser token (401 if it is
    not genuine); None without one (other tokens are ignored, as before)."""
    token = tokens.bearer(request.headers.get("Authorization"))
    parsed = tokens.parse(token) if token else None
    if parsed is None or parsed.kind != "ot":
        return None
    organiser = organiser_of_token(store, parsed)
    if organiser is None:
        raise ApiError(401, "unauthorized", "this organiser token is not valid")
    return organiser
