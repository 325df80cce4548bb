"""Host management of a game: replacing a seat's lost token.

The new token is shown once; from then on only it acts for the seat (the old
one is refused).  The rotation is an event of the game, ``seat_token_rotated``
(:mod:`domain.custody`, signed like every event, no secret in it), appended
together with the seat's new hash: guarded by the old hash, so two rotations
at the same time cannot undo each other, and keyed to the epoch the event
opens, so no old hash can be put back (:mod:`service.adapters.tokens`).

The database cannot check the event's signature, so a rotated hash is in
effect only when that event verifies (:class:`VerifiedRotations`, asked by
:mod:`service.usecases.auth`); otherwise the hash it replaced is, which the
append kept (:mod:`events.sql.token_history`), and ``cablecar quarantine``
puts it back when it moves the rotation aside.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.custody import SeatTokenRotated
from domain.errors import GameFinished
from events.records import GuardFailed, MetadataGuard, StaleVersion, TokenChange
from service.adapters.tokens import new_token
from service.errors import GameDamaged, InvalidConfig, KeptChanging, NotFound
from service.usecases.commands import GameCommands
from service.usecases.queries import GameQueries

#: Attempts before giving up under heavy contention.
MAX_TRIES = 5


@dataclass
class VerifiedRotations:
    """A seat's rotated hash is in effect only when the game's event of its
    epoch is the server's ``seat_token_rotated`` of that seat: read and
    checked like every event served (hash, number, signature).  Asked only
    for a seat that was rotated, so the seat tokens of a game nobody rotated
    cost nothing more."""

    queries: GameQueries

    def holds(self, game_id: str, seat: int, epoch: int) -> bool:
        """Whether the game's event ``epoch`` is the server's rotation of ``seat``."""
        try:
            events = self.queries.stored_events(game_id, epoch - 1, 1)
        except GameDamaged:
            return False
        return (len(events) == 1 and events[0].seq == epoch and events[0].type == SeatTokenRotated.TYPE
                and events[0].payload.get("seat") == seat)

    def before(self, game_id: str, seat: int, epoch: int) -> str | None:
        """The hash the rotation of ``seat`` at ``epoch`` replaced, if kept."""
        return self.queries.event_log.seat_hash_before(game_id, seat, epoch)


@dataclass(frozen=True)
class RotatedSeatToken:
    """A seat's new token (shown only here, once)."""

    game_id: str
    seat: int
    name: str
    token: str


def rotate_seat_token(commands: GameCommands, game_id: str, seat: int) -> RotatedSeatToken:
    """Give ``seat`` a new token and revoke its old one, recording the rotation.

    404 for a seat the game does not have, 409 ``game_finished`` once the game
    is over (there is nothing left to act on)."""
    version = 0
    for _ in range(MAX_TRIES):
        record = commands.queries.record(game_id)
        hashes = list(record.metadata.get("seat_token_hashes", []))
        if not 0 <= seat < len(hashes):
            raise NotFound(f"game {game_id} has no seat {seat}")
        if hashes[seat] is None:
            raise InvalidConfig(f"seat {seat} is played by the server's bot: it has no token", reason="bot_seat")
        loaded = commands.queries.load(game_id, record=record)
        version = loaded.version
        if loaded.finished:
            raise GameFinished(f"the game is {loaded.definition.status(loaded.state)}; "
                               "its seat tokens can no longer act")
        token = new_token("st", game_id)
        change = TokenChange(seat, commands.tokens.hasher.stored(token, game_id, seat, epoch=version + 1))
        try:
            commands.append_events(loaded, None, [SeatTokenRotated(seat)],
                                           guard=MetadataGuard(("seat_token_hashes", seat), str(hashes[seat])),
                                           token=change)
        except (StaleVersion, GuardFailed):
            continue  # a move or another rotation came first: look again
        players = record.metadata.get("players", [])
        name = str(players[seat]) if seat < len(players) else ""
        return RotatedSeatToken(game_id, seat, name, token)
    raise KeptChanging("the game's tokens kept changing; retry", current_version=version)
