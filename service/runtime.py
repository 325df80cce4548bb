"""The per-application objects (store, cache, game service, settings)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from events.database import Database
from service.cache import StateCache
from service.config import Settings
from service.games import GameService


@dataclass(frozen=True)
class Runtime:
    """What the routes need, built once by the app factory."""

    settings: Settings
    store: Database
    cache: StateCache
    games: GameService


def runtime() -> Runtime:
    """The runtime of the current Flask app."""
    rt = current_app.extensions["cablecar"]
    assert isinstance(rt, Runtime)
    return rt
