"""Keeping the bot-turn index current: after each write of a game with bot
seats, whether one of them must act now (and since when), so that the bot
runners find it (:mod:`events.recorders.bot_turns`, :mod:`bots.runner`); and, at
creation, whether any runner is alive to play a new bot seat."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from domain.core import JSON
from events.encoding.timestamps import Clock, system_clock
from events.recorders.bot_turns import BotTurnIndex
from service.errors import BotsUnavailable
from service.usecases.bot_seats import bot_seats
from service.usecases.loaded import Loaded


def creator_key(metadata: Mapping[str, JSON], address: str | None = None) -> str | None:
    """Who the runners' round-robin counts a game for: its organiser, else a
    hash of the creating address (never the address itself), else nobody
    (the game counts as a creator of its own)."""
    organiser = metadata.get("organiser")
    if isinstance(organiser, str):
        return f"organiser:{organiser}"
    if address:
        return "address:" + hashlib.sha256(address.encode()).hexdigest()[:24]
    return None


def waiting_bot_seats(loaded: Loaded) -> list[int]:
    """The seats of ``loaded`` a server bot plays that may act now."""
    if loaded.finished or loaded.scheduled:  # a scheduled game's bots wait for its start like everyone
        return []
    bots = bot_seats(loaded.record.metadata)
    return [s for s in loaded.definition.active_seats(loaded.state) if s < len(bots) and bots[s] is not None]


class BotTurns:
    """Writes a game's row of the bot-turn index after each of its writes."""

    def __init__(self, index: BotTurnIndex, clock: Clock = system_clock, require_runner: bool = False) -> None:
        self.index = index
        self._clock = clock
        #: refuse a new bot seat while no runner is alive (the server's wiring; tools and tests wire none)
        self.require_runner = require_runner

    def record(self, loaded: Loaded, address: str | None = None) -> None:
        """Note whether a bot seat of ``loaded`` must act (games with bot seats
        only); ``address``: the anonymous creator's, at creation."""
        if not any(bot_seats(loaded.record.metadata)):
            return
        waiting = waiting_bot_seats(loaded)
        self.index.set_bot_turn(loaded.record.game_id, loaded.version, self._clock() if waiting else None,
                                creator_key(loaded.record.metadata, address))

    def live_runners(self) -> int:
        """How many bot runners are alive now (their heartbeats)."""
        return self.index.live_bot_runners(self._clock())

    def require_runners(self, bots: Sequence[str | None] | None) -> None:
        """BotsUnavailable when ``bots`` seats a server bot and no runner is
        alive to play it (only where :attr:`require_runner` is set)."""
        if self.require_runner and bots and any(bots) and self.live_runners() == 0:
            raise BotsUnavailable(
                "no bot runner has been alive for a lease period, so nobody would play a bot seat: nothing was "
                "created (the operator starts one: `cablecar bots run`; see GET /v1/health's `bots`)"
            )
