"""Bot seats: which server-side bots a game type offers, and checking a new
game's choice of them.

The names are the service's catalogue: the bot runner (:mod:`bots.runner`)
plays each of them (a test holds the two together), but creating a game never
imports the bots' decision code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.core import JSON
from service.errors import InvalidConfig

#: per game type, the strategies a seat may be given, weakest first (the ladder's levels)
BOTS: Mapping[str, tuple[str, ...]] = {
    "ttr-sf": ("random", "greedy", "planner", "mcts"),
    "cable-car": ("random", "greedy", "planner"),
}
#: the metadata key of a game's bot seats: one entry per seat, the strategy or None
METADATA_KEY = "bots"


def bots_of_type(type_id: str) -> tuple[str, ...]:
    """The bot strategies ``type_id`` offers (none for a type without bots)."""
    return BOTS.get(type_id, ())


def checked_bots(type_id: str, bots: Sequence[str | None] | None, players: int) -> list[str | None] | None:
    """``bots`` (one entry per seat) when every named strategy plays ``type_id``;
    None when no seat is a bot.  InvalidConfig (422, reason ``unknown_bot``)
    names the first seat whose bot this type does not have."""
    if bots is None or all(b is None for b in bots):
        return None
    if len(bots) != players:
        raise ValueError("one bot entry per seat")  # the callers build it from the player list
    offered = bots_of_type(type_id)
    for seat, name in enumerate(bots):
        if name is not None and name not in offered:
            choices = ", ".join(offered) or "none"
            raise InvalidConfig(
                f"players[{seat}]: {type_id} has no bot {name!r} (its bots: {choices}; see /v1/game-types)",
                reason="unknown_bot",
                errors=[{"field": f"players.{seat}.bot", "message": f"one of: {choices}"}],
            )
    return list(bots)


def bot_seats(metadata: Mapping[str, JSON]) -> list[str | None]:
    """Per seat, the bot that plays it (None: a person), from a game's metadata."""
    players = metadata.get("players")
    count = len(players) if isinstance(players, list) else 0
    stored = metadata.get(METADATA_KEY)
    if not isinstance(stored, list):
        return [None] * count
    return [str(b) if isinstance(b, str) else None for b in stored]
