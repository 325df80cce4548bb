"""Host management of a game: replacing a seat's lost token.

The new token is shown once; from then on only it acts for the seat (the old
one is refused).  The seat's hash is swapped with a compare-and-set on the
game's metadata, so two rotations at the same time cannot undo each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.core import STATUS_CANCELLED, STATUS_FINISHED
from domain.errors import GameFinished
from events.store import EventStore
from service.adapters.tokens import hash_token, new_token
from service.errors import InvalidConfig, KeptChanging, NotFound

#: Compare-and-set attempts before giving up under heavy contention.
MAX_TRIES = 5


@dataclass(frozen=True)
class RotatedSeatToken:
    """A seat's new token (shown only here, once)."""

    game_id: str
    seat: int
    name: str
    token: str


def rotate_seat_token(store: EventStore, game_id: str, seat: int) -> RotatedSeatToken:
    """Give ``seat`` a new token and revoke its old one.

    404 for a seat the game does not have, 409 ``game_finished`` once the game
    is over (there is nothing left to act on)."""
    for _ in range(MAX_TRIES):
        record = store.get_game(game_id)
        hashes = list(record.metadata.get("seat_token_hashes", []))
        if not 0 <= seat < len(hashes):
            raise NotFound(f"game {game_id} has no seat {seat}")
        if hashes[seat] is None:
            raise InvalidConfig(f"seat {seat} is played by the server's bot: it has no token", reason="bot_seat")
        if record.status in (STATUS_FINISHED, STATUS_CANCELLED):
            raise GameFinished(f"the game is {record.status}; its seat tokens can no longer act")
        token = new_token("st", game_id)
        rotated = [*hashes[:seat], hash_token(token), *hashes[seat + 1 :]]
        if store.compare_and_set_metadata(game_id, "seat_token_hashes", hashes, rotated):
            players = record.metadata.get("players", [])
            name = str(players[seat]) if seat < len(players) else ""
            return RotatedSeatToken(game_id, seat, name, token)
    raise KeptChanging("the game's tokens kept changing; retry", current_version=record.version)
