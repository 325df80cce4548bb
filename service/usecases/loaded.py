"""A game as the use cases hold it: its record, rules, state and clocks at one
version (what :mod:`service.usecases.queries` loads, the commands append after, and
:mod:`service.usecases.presentation` renders)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from domain.clocks import Clocks
from domain.core import GameDefinition
from domain.custody import STATUS_SCHEDULED
from events.encoding.timestamps import format_timestamp
from events.records import GameRecord
from service.adapters.statecodec import Snapshot


@dataclass(frozen=True)
class Loaded:
    """A game's record, its rules, and its state and clocks rebuilt at ``version``."""

    record: GameRecord
    definition: GameDefinition[Any]
    state: Any
    version: int
    clocks: Clocks
    #: the first stored event that fails its check, when this is the game up to
    #: the event before it (:meth:`~service.usecases.queries.GameQueries.readable`); None for a sound game
    damaged_from: int | None = None

    @property
    def finished(self) -> bool:
        """Whether the game has ended (finished, or cancelled by its host)."""
        return bool(self.definition.is_over(self.state))

    @property
    def scheduled(self) -> bool:
        """Whether the game waits for its scheduled start (``clocks.starts_at``): nobody may act yet."""
        return self.clocks.starts_at is not None and not self.finished

    @property
    def starts_at(self) -> str | None:
        """When a scheduled game that has not started yet starts (ISO-8601 UTC), else None."""
        return format_timestamp(datetime.fromtimestamp(self.clocks.starts_at, UTC)) if self.scheduled \
            and self.clocks.starts_at is not None else None

    @property
    def status(self) -> str:
        """The game's status: ``scheduled`` while it waits for its start, else the rules'."""
        return STATUS_SCHEDULED if self.scheduled else str(self.definition.status(self.state))

    @property
    def snapshot(self) -> Snapshot:
        """What the cache keeps of this game at this version."""
        return Snapshot(self.state, self.clocks)
