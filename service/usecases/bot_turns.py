"""Keeping the bot-turn index current: after each write of a game with bot
seats, whether one of them must act now (and since when), so that the bot
runners find it (:mod:`events.bot_turns`, :mod:`bots.runner`)."""

from __future__ import annotations

from events.bot_turns import BotTurnIndex
from events.timestamps import Clock, system_clock
from service.usecases.bot_seats import bot_seats
from service.usecases.loaded import Loaded


def waiting_bot_seats(loaded: Loaded) -> list[int]:
    """The seats of ``loaded`` a server bot plays that may act now."""
    if loaded.finished:
        return []
    bots = bot_seats(loaded.record.metadata)
    return [s for s in loaded.definition.active_seats(loaded.state) if s < len(bots) and bots[s] is not None]


class BotTurns:
    """Writes a game's row of the bot-turn index after each of its writes."""

    def __init__(self, index: BotTurnIndex, clock: Clock = system_clock) -> None:
        self.index = index
        self._clock = clock

    def record(self, loaded: Loaded) -> None:
        """Note whether a bot seat of ``loaded`` must act (games with bot seats only)."""
        if not any(bot_seats(loaded.record.metadata)):
            return
        waiting = waiting_bot_seats(loaded)
        self.index.set_bot_turn(loaded.record.game_id, loaded.version, self._clock() if waiting else None)
