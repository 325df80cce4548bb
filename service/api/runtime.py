"""The per-application objects (settings, store, cache, the game queries and commands, the event streams)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from events.database import Database
from service.adapters.cache import StateCache
from service.adapters.signing_keys import ServerKeys
from service.api.sse import StreamHub
from service.config import Settings
from service.usecases.auth import TokenCheck
from service.usecases.commands import GameCommands
from service.usecases.queries import GameQueries
from service.usecases.stream_tickets import TicketOffice
from service.usecases.timekeeper import Timekeeper
from service.usecases.transparency import LogProofs


@dataclass(frozen=True)
class Runtime:
    """What the routes need, built once by the app factory."""

    settings: Settings
    store: Database
    cache: StateCache
    queries: GameQueries
    commands: GameCommands
    streams: StreamHub
    timekeeper: Timekeeper
    keys: ServerKeys
    #: every token check (:mod:`service.usecases.auth`): the store's rows and the server's keyed hashes
    tokens: TokenCheck
    #: the transparency log's checkpoints and proofs (:mod:`service.usecases.transparency`)
    log: LogProofs
    #: the seats' stream tickets (:mod:`service.usecases.stream_tickets`)
    tickets: TicketOffice


def runtime() -> Runtime:
    """The runtime of the current Flask app."""
    rt = current_app.extensions["cablecar"]
    assert isinstance(rt, Runtime)
    return rt
