"""The game types served: ``type_id -> GameDefinition``.

Every game is imported here eagerly, so a game that fails to import stops
the server at start-up instead of silently going missing.
"""

from __future__ import annotations

from typing import Any

from domain import cablecar, ttr
from domain.core import GameDefinition

GAMES: dict[str, GameDefinition[Any]] = {g.type_id: g for g in (ttr.GAME, cablecar.GAME)}


def game_definition(type_id: str) -> GameDefinition[Any]:
    """The game definition for ``type_id``; raises KeyError if not served."""
    return GAMES[type_id]


def all_games() -> list[GameDefinition[Any]]:
    """Every served game definition, sorted by type id."""
    return [GAMES[k] for k in sorted(GAMES)]
