"""Repairing a damaged game (``cablecar quarantine GAME``): its bad tail is
moved aside and the game goes on from its last good event; never an event the
transparency log holds (issue 48).

The damage is found as every read finds it (:meth:`GameQueries.load`: the
chain, each event's hash and signature, rows past the game's version); the
state after the last good event gives the game row's status; the store
moves the tail and appends the signed ``events_quarantined`` event in one
transaction (:meth:`events.recorders.quarantine.QuarantineStore.set_aside`), with
the server's own signing key.  Then the game is read back whole (it must be
sound now) and its rows of the deadline and bot-turn indexes are written
again, so timeouts and bots pick it up.

A tail holding an event that a published checkpoint holds is refused
(:class:`QuarantineRefused` naming the checkpoint, nothing written): whoever
kept that checkpoint holds the event, so the record cannot go on without it.
The store judges it in the transaction that would move the tail, taking
turns with the log's publisher (:class:`events.recorders.quarantine.LoggedEvent`),
and the database refuses the DELETE of a logged event besides.  Such a game
stays damaged, and ``/audit`` says whether the log holds it as stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.integrity.signing import Signer
from events.recorders.bot_turns import BotTurnIndex
from events.recorders.deadlines import DeadlineIndex
from events.recorders.quarantine import LoggedEvent, QuarantineStore, SetAside
from service.errors import GameDamaged, ServiceError
from service.usecases.bot_turns import BotTurns
from service.usecases.loaded import Loaded
from service.usecases.queries import GameQueries
from service.usecases.timekeeper import Timekeeper


class QuarantineRefused(ServiceError):
    """The game cannot be repaired by a quarantine: its first event is bad, or
    the bad tail holds an event the transparency log holds."""

    code = "game_damaged"


@dataclass(frozen=True)
class Quarantined:
    """What :func:`quarantine_game` did: ``moved`` is None for a sound game
    (nothing was written); ``loaded`` is the game now."""

    loaded: Loaded
    moved: SetAside | None


def quarantine_game(
    queries: GameQueries, quarantine: QuarantineStore, bot_turns: BotTurnIndex, deadlines: DeadlineIndex,
    signer: Signer, game_id: str, reason: str | None = None,
) -> Quarantined:
    """Move the bad tail of ``game_id`` aside (see the module docs); a sound
    game is left as it is.  GameNotFound for an unknown game."""
    record = queries.record(game_id)
    queries.cache.forget(game_id)  # judged from the store alone
    try:
        return Quarantined(queries.load(game_id, record=record, settle=False), None)
    except GameDamaged as damaged:
        from_seq = damaged.seq
    if from_seq <= 1:
        raise QuarantineRefused(f"game {game_id}: its first event is damaged: there is no good event to go on "
                                "from (the record is left as it is; /audit names the event)")
    good = queries.load(game_id, from_seq - 1, record=record, settle=False)
    [head] = queries.stored_events(game_id, from_seq - 2, 1)
    why = reason or f"seq {from_seq} failed its chain or signature check"
    try:
        moved = quarantine.set_aside(game_id, from_seq, head.hash, good.definition.status(good.state), why, signer)
    except LoggedEvent as logged:
        raise QuarantineRefused(f"{logged}; GET /v1/games/{game_id}/audit reports the game as damaged, and whether "
                                "the log holds it as stored", seq=logged.seq, leaf_index=logged.leaf_index,
                                tree_size=logged.tree_size, origin=logged.origin) from logged
    queries.cache.forget(game_id)
    loaded = queries.load(game_id, settle=False)
    BotTurns(bot_turns).record(loaded)
    Timekeeper(queries, deadlines).record(loaded)
    return Quarantined(loaded, moved)
