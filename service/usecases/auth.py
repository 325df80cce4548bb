"""Who is calling: a seat, the game's host, its organiser, or a spectator.

Token scopes (``service.adapters.tokens``): a seat token acts for its seat; a host
token manages its game (it reads like a spectator and may rotate a lost seat
token); an organiser token creates batches, registers webhooks and reads its
own games like a spectator; no token is a spectator.  A token that is not
genuine is 401; a genuine token used where its scope does not reach is 403.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from events.recorders.tournaments import OrganiserRecord
from events.records import GameNotFound, GameRecord
from service.adapters import tokens
from service.errors import Forbidden, Unauthorized


class OrganiserLookup(Protocol):
    """What checking an organiser token reads: organiser rows."""

    def get_organiser(self, organiser_id: str) -> OrganiserRecord | None: ...


class GameLookup(Protocol):
    """What checking a seat's or host's token reads of a game: its row (the token hashes)."""

    def get_game(self, game_id: str) -> GameRecord: ...


@dataclass(frozen=True)
class TokenCheck:
    """What checking a token needs: the rows it reads (``games``, ``organisers``)
    and the server's keyed hashes (``hasher``: a hash written by anyone without
    the server's secret matches no token, see :mod:`service.adapters.tokens`)."""

    games: GameLookup
    organisers: OrganiserLookup
    hasher: tokens.TokenHasher


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


def _seat_of(hasher: tokens.TokenHasher, record: GameRecord, token: str) -> int | None:
    for seat, stored in enumerate(record.metadata.get("seat_token_hashes", [])):
        if hasher.matches(token, record.game_id, seat, stored):
            return seat
    return None


def _token_valid_for(hasher: tokens.TokenHasher, record: GameRecord, token: str) -> tuple[int | None, bool] | None:
    seat = _seat_of(hasher, record, token)
    if seat is not None:
        return seat, False
    if hasher.matches(token, record.game_id, tokens.HOST, record.metadata.get("host_token_hash")):
        return None, True
    return None


def seat_of_token(hasher: tokens.TokenHasher, record: GameRecord, header: str | None) -> int | None:
    """The seat whose token the ``Authorization`` header value holds, judged
    against ``record`` alone; None for anything else (no header, another
    kind of token, a token this row does not know).  For a row this process
    remembers: a None is no refusal, only a reason to ask
    :func:`game_caller` with a fresh row."""
    token = tokens.bearer(header)
    parsed = tokens.parse(token) if token else None
    if parsed is None or parsed.kind != "st" or parsed.scope != record.game_id:
        return None
    return _seat_of(hasher, record, parsed.raw)


def game_caller(check: TokenCheck, record: GameRecord, header: str | None) -> Caller:
    """Resolve the ``Authorization`` header value against ``record``.

    No header: a spectator.  A token of this game: its seat or host.  A valid
    token of another game: 403.  Anything else: 401."""
    if header is None:
        return Caller()
    token = tokens.bearer(header)
    parsed = tokens.parse(token) if token else None
    if parsed is None:
        raise Unauthorized("the Authorization header must be 'Bearer <seat or host token>'")
    if parsed.kind == "ot":
        organiser = organiser_of_token(check, parsed)
        if organiser is None:
            raise Unauthorized("this organiser token is not valid")
        if record.metadata.get("organiser") == organiser.organiser_id:
            return Caller(organiser=True)
        raise Forbidden("this game was not created with this organiser token")
    if parsed.scope == record.game_id and parsed.kind in ("st", "ht"):
        found = _token_valid_for(check.hasher, record, parsed.raw)
        if found is not None:
            return Caller(seat=found[0], host=found[1])
        raise Unauthorized("this token is not valid for this game")
    if parsed.kind in ("st", "ht"):
        try:
            other = check.games.get_game(parsed.scope)
        except GameNotFound:
            other = None
        if other is not None and _token_valid_for(check.hasher, other, parsed.raw) is not None:
            raise Forbidden("this token belongs to another game")
    raise Unauthorized("this token is not valid for this game")


def require_seat(caller: Caller) -> int:
    """The caller's seat, or 401/403 when it has none."""
    if caller.seat is not None:
        return caller.seat
    if caller.host:
        raise Forbidden("a host token cannot act for a seat; use that seat's token")
    if caller.organiser:
        raise Forbidden("an organiser token cannot act for a seat; use that seat's token")
    raise Unauthorized("a seat token is required: send 'Authorization: Bearer <seat token>'")


def require_host(caller: Caller) -> None:
    """Pass for the game's host token; 401 without a token, 403 for any other."""
    if caller.host:
        return
    if caller.spectator:
        raise Unauthorized("a host token is required: send 'Authorization: Bearer <host token>'"
        )
    raise Forbidden("only the game's host token may manage the game")


def organiser_of_token(check: TokenCheck, parsed: tokens.ParsedToken) -> OrganiserRecord | None:
    """The organiser a presented ``ot`` token belongs to, if it is genuine."""
    if parsed.kind != "ot":
        return None
    organiser = check.organisers.get_organiser(parsed.scope)
    if organiser is None or not check.hasher.matches(parsed.raw, parsed.scope, tokens.ORGANISER,
                                                      organiser.token_hash):
        return None
    return organiser


def _genuine_game_token(check: TokenCheck, parsed: tokens.ParsedToken) -> bool:
    if parsed.kind not in ("st", "ht"):
        return False
    try:
        record = check.games.get_game(parsed.scope)
    except GameNotFound:
        return False
    return _token_valid_for(check.hasher, record, parsed.raw) is not None


def organiser_caller(check: TokenCheck, header: str | None) -> OrganiserRecord:
    """The organiser whose token the ``Authorization`` header value holds.

    No header, a malformed or a wrong token: 401.  A genuine seat or host
    token: 403 (it is valid, but its scope is one game)."""
    token = tokens.bearer(header)
    parsed = tokens.parse(token) if token else None
    if parsed is None:
        raise Unauthorized("an organiser token is required: send 'Authorization: Bearer <organiser token>'",
        )
    organiser = organiser_of_token(check, parsed)
    if organiser is not None:
        return organiser
    if _genuine_game_token(check, parsed):
        raise Forbidden("a seat or host token cannot do this; use an organiser token")
    raise Unauthorized("this token is not a valid organiser token")


def creating_organiser(check: TokenCheck, header: str | None, required: bool) -> OrganiserRecord | None:
    """For creating a game: the organiser of an organiser token (401 if it is
    not genuine); None without one (other tokens are ignored, as before),
    unless the operator ``required`` an organiser token: then 401."""
    token = tokens.bearer(header)
    parsed = tokens.parse(token) if token else None
    if parsed is None or parsed.kind != "ot":
        if required:
            raise Unauthorized("this server creates games for organisers only: "
                               "send 'Authorization: Bearer <organiser token>'")
        return None
    organiser = organiser_of_token(check, parsed)
    if organiser is None:
        raise Unauthorized("this organiser token is not valid")
    return organiser
