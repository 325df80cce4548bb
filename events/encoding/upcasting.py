"""Upcasters: turning payloads stored at an old schema version into the
current one when they are read.

Stored events are never rewritten (the table refuses UPDATE).  When an event
class's ``SCHEMA_VERSION`` is raised, its game declares an
:class:`~domain.core.Upcast` converting a payload of ``from_version`` into
``from_version + 1``; reading applies them in order until the current
version.  Upcasters are pure functions of the payload.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.core import JSON, GameDefinition, Upcast, Upcaster
from domain.registry import GAMES
from events.records import IntegrityError

Payload = Mapping[str, JSON]


class UpcastError(IntegrityError):
    """A stored payload cannot be brought to the current schema version."""


class UpcasterRegistry:
    """Upcasters by ``(game_type, event_type, from_version)``, fixed when built."""

    __slots__ = ("_steps",)

    def __init__(self, steps: Iterable[tuple[str, Upcast]] = ()) -> None:
        """Index ``(game_type, upcast)`` pairs; ``ValueError`` on a step
        declared twice or a version below 1."""
        self._steps: dict[tuple[str, str, int], Upcaster] = {}
        for game_type, step in steps:
            if step.from_version < 1:
                raise ValueError("schema versions start at 1")
            key = (game_type, step.event_type, step.from_version)
            if key in self._steps:
                raise ValueError(f"an upcaster for {key} is declared twice")
            self._steps[key] = step.lift

    @classmethod
    def of_games(cls, games: Iterable[GameDefinition[Any]]) -> UpcasterRegistry:
        """The upcasters every game in ``games`` declares."""
        return cls((game.type_id, step) for game in games for step in game.upcasters)

    def upcast(
        self, game_type: str, event_type: str, version: int, payload: Payload, target_version: int
    ) -> Payload:
        """``payload`` (stored at ``version``) converted to ``target_version``.

        Raises UpcastError if a step is missing, the stored version is newer
        than the code's, or an upcaster rejects the payload."""
        if version == target_version:
            return payload
        if version > target_version:
            raise UpcastError(
                f"{game_type}/{event_type}: stored schema version {version} is newer than "
                f"this code's {target_version}"
            )
        current: Payload = payload
        for step_from in range(version, target_version):
            step = self._steps.get((game_type, event_type, step_from))
            if step is None:
                raise UpcastError(
                    f"{game_type}/{event_type}: no upcaster from schema version {step_from} "
                    f"to {step_from + 1}"
                )
            try:
                current = step(current)
            except (KeyError, TypeError, ValueError) as e:
                raise UpcastError(
                    f"{game_type}/{event_type}: payload at schema version {step_from} cannot be upcast: {e}"
                ) from e
        return current

    def steps(self) -> list[tuple[str, str, int]]:
        """Every declared ``(game_type, event_type, from_version)``, sorted."""
        return sorted(self._steps)


#: The upcasters of every served game (what the codec uses).
UPCASTERS = UpcasterRegistry.of_games(GAMES.values())
