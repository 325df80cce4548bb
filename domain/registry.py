"""The registry of game types served: ``type_id -> GameDefinition``."""

from __future__ import annotations

from typing import Any

from domain.core import GameDefinition

_GAMES: dict[str, GameDefinition[Any]] = {}


def register(game: GameDefinition[Any]) -> GameDefinition[Any]:
    """Add a game definition to the registry (idempotent for the same object)."""
    existing = _GAMES.get(game.type_id)
    if existing is not None and existing is not game:
        raise ValueError(f"game type {game.type_id!r} is already registered")
    _GAMES[game.type_id] = game
    return game


def _load_builtin() -> None:
    # Imported lazily so that each game package stays independent.
    import importlib

    for module in ("domain.ttr", "domain.cablecar"):
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:  # a game package not built yet
            if e.name != module:
                raise
            continue
        register(mod.GAME)


def get_game(type_id: str) -> GameDefinition[Any]:
    """The game definition for ``type_id``; raises KeyError if not served."""
    if not _GAMES:
        _load_builtin()
    return _GAMES[type_id]


def all_games() -> list[GameDefinition[Any]]:
    """Every served game definition, sorted by type id."""
    if not _GAMES:
        _load_builtin()
    return [_GAMES[k] for k in sorted(_GAMES)]
