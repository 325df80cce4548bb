"""What a listing says of a game: the status its view gives, and
``damaged_from`` for a damaged one (``GET /v1/games``, a batch's games, its
results and the standings).

A game's row (its status and version) is written by the append that moves
the game, whoever sends it: an append the database takes from a login that
is not the server's (a forged ``game_ended``, signed with a key of the
forger's) sets ``finished`` there too, while the game's view, read from its
checked events, shows the game up to its last good event.  So a listing
checks each row before it repeats it: the row is *sound* when this process
holds the game's state checked at the row's version (its cache), or when
the game's last stored event is at the row's version with nothing after it,
hashes to its own hash and is signed by one of the server's keys.  A sound
game is listed as its row says; any other is read as its view reads it
(:meth:`~service.usecases.queries.GameQueries.readable`) and listed with the
status of that, and ``damaged_from``.  A verdict is kept per game, version
and ``updated_at``: a row that moves is checked again.

What the check does not see is an event before the last one changed in place
(the events table refuses that to every login but its owner's): the view
sees it when it rebuilds the game, and ``/audit`` always does."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.core import JSON
from events.integrity.envelope import recompute_hash
from events.records import DamagedEvent, GameNotFound, GameRecord
from service.adapters.lru import LRU
from service.errors import GameDamaged
from service.usecases.loaded import Loaded
from service.usecases.presentation import game_summary
from service.usecases.queries import GameQueries

#: the verdicts a process keeps (one small tuple each)
REMEMBERED = 16_384


@dataclass(frozen=True)
class Listed:
    """What a listing says of a game: its ``status`` as its view gives it and,
    for a damaged game, the seq of its first bad event (``damaged_from``)."""

    status: str
    damaged_from: int | None = None


class GameListing:
    """Rows checked before they are listed (see the module docs)."""

    def __init__(self, queries: GameQueries, remembered: int = REMEMBERED) -> None:
        self.queries = queries
        self._verdicts: LRU[tuple[str, int, str], Listed] = LRU(remembered)
        self._sound: LRU[tuple[str, int, str], bool] = LRU(remembered)

    def listed(self, record: GameRecord) -> Listed:
        """What a listing says of the game whose row is ``record``."""
        key = (record.game_id, record.version, record.updated_at)
        found = self._verdicts.get(key)
        if found is None:
            found = Listed(record.status) if self.sound(record) else self.viewed(record)[1]
            self._verdicts.put(key, found)
        return found

    def page(self, records: Sequence[GameRecord], status: str | None = None) -> list[tuple[GameRecord, Listed]]:
        """``records`` (a listing's page) each with what is said of it; with
        ``status`` (the listing's filter, which the rows matched) only those
        whose view gives that status too."""
        listed = [(record, self.listed(record)) for record in records]
        return [(r, said) for r, said in listed if status is None or said.status == status]

    def sound(self, record: GameRecord) -> bool:
        """Whether the row may be listed as it is: its version is held
        checked here, or the game's last stored event is at that version,
        alone, whole and signed by one of the server's keys."""
        key = (record.game_id, record.version, record.updated_at)
        known = self._sound.get(key)
        if known is None:
            known = self._checked(record)
            self._sound.put(key, known)
        return known

    def _checked(self, record: GameRecord) -> bool:
        held = self.queries.cache.get_local(record.game_id)
        if held is not None and held[0] == record.version:
            return True
        try:
            tail = self.queries.reader.load(record.game_id, max(record.version - 1, 0))
        except (DamagedEvent, GameNotFound):
            return False
        if len(tail) != 1 or tail[0].seq != record.version or recompute_hash(tail[0]) != tail[0].hash:
            return False
        keys = self.queries.keys
        # an unsigned last event (a record from before signing, or a forgery) is read in full
        return keys is None or keys.problem(tail[0]) is None

    def viewed(self, record: GameRecord) -> tuple[Loaded | None, Listed]:
        """The game as its view reads it (up to its last good event, for a
        damaged one), and what a listing says of it; None for a game whose
        very first event is bad (nothing of it can be shown: it keeps its
        row's status, with ``damaged_from`` 1)."""
        try:
            loaded = self.queries.readable(record.game_id, record)
        except GameDamaged as damaged:
            return None, Listed(record.status, damaged.seq)
        return loaded, Listed(loaded.status, loaded.damaged_from)


def listed_summary(record: GameRecord, listed: Listed) -> dict[str, JSON]:
    """The listing's summary of a game (:func:`~service.usecases.presentation.game_summary`)
    with the status its view gives and, for a damaged game, ``damaged_from``."""
    summary = game_summary(record)
    summary["status"] = listed.status
    if listed.damaged_from is not None:
        summary["damaged_from"] = listed.damaged_from
    return summary
