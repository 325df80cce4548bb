"""Upcasters: turning payloads stored at an old schema version into the
current one when they are read.

Stored events are never rewritten (the table refuses UPDATE).  When an event
class's ``SCHEMA_VERSION`` is raised, an upcaster
``(game_type, event_type, from_version) -> fn(payload) -> payload`` converts
a payload of ``from_version`` into ``from_version + 1``; reading applies them
in order until the current version.  Upcasters are pure functions of the
payload.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from events.store import IntegrityError

JSON = Any
Payload = Mapping[str, JSON]
Upcaster = Callable[[Payload], dict[str, JSON]]


class UpcastError(IntegrityError):
    """A stored payload cannot be brought to the current schema version."""


@dataclass(frozen=True)
class UpcasterRegistry:
    """Upcasters by ``(game_type, event_type, from_version)``."""

    _steps: dict[tuple[str, str, int], Upcaster] = field(default_factory=dict)

    def register(self, game_type: str, event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorator registering ``fn`` as the ``from_version -> from_version + 1`` step.

        Raises ``ValueError`` if that step is already registered."""
        if from_version < 1:
            raise ValueError("schema versions start at 1")
        key = (game_type, event_type, from_version)

        def decorate(fn: Upcaster) -> Upcaster:
            existing = self._steps.get(key)
            if existing is not None and existing is not fn:
                raise ValueError(f"an upcaster for {key} is already registered")
            self._steps[key] = fn
            return fn

        return decorate

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
        """Every registered ``(game_type, event_type, from_version)``, sorted."""
        return sorted(self._steps)


#: The registry the codec uses; ``events.upcasters`` fills it on import.
UPCASTERS = UpcasterRegistry()


def upcaster(game_type: str, event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register a step in :data:`UPCASTERS` (decorator)."""
    return UPCASTERS.register(game_type, event_type, from_version)
