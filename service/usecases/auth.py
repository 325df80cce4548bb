"""Who is calling: a seat, the game's host, its organiser, or a spectator.

Token scopes (``service.adapters.tokens``): a seat token acts for its seat; a host
token manages its game (it reads like a spectator and may rotate a lost seat
token); an organiser token creates batches, registers webhooks and reads its
own games like a spectator; no token is a spectator.  A token that is not
genuine is 401; a genuine token used where its scope does not reach is 403.

A seat's stored hash is in effect only if it was set with a rotation whose
event verifies (issue 48): the database cannot check a signature, so a login
alone can plant a hash with an event signed by any key.  A hash of epoch 0
(set at the game's creation) is in effect as it is; one of a later epoch
only if the game's event of that seq is the server's ``seat_token_rotated``
of that seat (:class:`RotationLedger`), else the hash it replaced is, and so
on back.  A planted hash therefore locks nobody out, and no old hash comes
back by it.
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


class RotationLedger(Protocol):
    """Whether a seat's rotated hash is in effect (:class:`service.usecases.seat_tokens.VerifiedRotations`)."""

    def holds(self, game_id: str, seat: int, epoch: int) -> bool:
        """Whether the game's event ``epoch`` is the server's rotation of ``seat`` (it verifies)."""
        ...

    def before(self, game_id: str, seat: int, epoch: int) -> str | None:
        """The hash the rotation of ``seat`` at ``epoch`` replaced, if kept."""
        ...


@dataclass(frozen=True)
class TokenCheck:
    """What checking a token needs: the rows it reads (``games``, ``organisers``)
    and the server's keyed hashes (``hasher``: a hash written by anyone without
    the server's secret matches no token, see :mod:`service.adapters.tokens`);
    ``rotations`` decides whether a rotated seat hash is in effect (None:
    every stored hash is taken as it is: nothing checks signatures)."""

    games: GameLookup
    organisers: OrganiserLookup
    hasher: tokens.TokenHasher
    rotations: RotationLedger | None = None


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


def _in_effect(rotations: RotationLedger, game_id: str, seat: int, stored: object) -> bool:
    """Whether ``seat``'s ``stored`` hash is in effect: set at creation, or by a rotation that verifies."""
    epoch = tokens.epoch_of(stored)
    return not epoch or rotations.holds(game_id, seat, epoch)


def _replaced(rotations: RotationLedger, game_id: str, seat: int, stored: object) -> object:
    """The hash in effect for ``seat`` when its ``stored`` one is not: the one its rotation replaced, and so
    on back (None when none is kept)."""
    epoch = tokens.epoch_of(stored)
    while epoch:
        stored = rotations.before(game_id, seat, epoch)
        earlier = tokens.epoch_of(stored)
        if earlier is None or earlier >= epoch:  # none kept (or not a hash the server made before it)
            return None
        if _in_effect(rotations, game_id, seat, stored):
            return stored
        epoch = earlier
    return None


def _fallback_seat(check: TokenCheck, record: GameRecord, token: str) -> int | None:
    """The seat whose stored hash is not in effect and whose hash in effect is ``token``'s (the module docs)."""
    rotations = check.rotations
    if rotations is None:
        return None
    for seat, stored in enumerate(record.metadata.get("seat_token_hashes", [])):
        if tokens.epoch_of(stored) and not _in_effect(rotations, record.game_id, seat, stored):
            effective = _replaced(rotations, record.game_id, seat, stored)
            if check.hasher.matches(token, record.game_id, seat, effective):
                return seat
    return None


def _token_valid_for(check: TokenCheck, record: GameRecord, token: str) -> tuple[int | None, bool] | None:
    """``(seat, False)`` for a seat's token, ``(None, True)`` for the host's, None for anything else; a
    seat's hash acts only if it is in effect (the module docs)."""
    seat = _seat_of(check.hasher, record, token)
    if seat is not None:
        stored = record.metadata["seat_token_hashes"][seat]
        if check.rotations is None or _in_effect(check.rotations, record.game_id, seat, stored):
            return seat, False
        return None
    if check.hasher.matches(token, record.game_id, tokens.HOST, record.metadata.get("host_token_hash")):
        return None, True
    seat = _fallback_seat(check, record, token)
    return None if seat is None else (seat, False)


def seat_of_token(hasher: tokens.TokenHasher, record: GameRecord, header: str | None) -> int | None:
    """The seat whose token the ``Authorization`` header value holds, judged
    against ``record`` alone; None for anything else (no header, another
    kind of token, a token this row does not know).  For a row this process
    remembers: a None is no refusal, only a reason to ask
    :func:`game_caller` with a fresh row.  Only the hash stored is matched:
    a hash that matches was made by the server, and an append guarded by it
    fails on a game whose rotation was forged (it is damaged)."""
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
        found = _token_valid_for(check, record, parsed.raw)
        if found is not None:
            return Caller(seat=found[0], host=found[1])
        raise Unauthorized("this token is not valid for this game")
    if parsed.kind in ("st", "ht"):
        try:
            other = check.games.get_game(parsed.scope)
        except GameNotFound:
            other = None
        if other is not None and _token_valid_for(check, other, parsed.raw) is not None:
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
    return _token_valid_for(check, record, parsed.raw) is not None


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
