"""The per-application objects: what :func:`service.bootstrap.bootstrap` built, and the event streams."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from events import Stores
from service.adapters.cache import StateCache
from service.adapters.signing_keys import ServerKeys
from service.api.sse import StreamHub
from service.bootstrap import Service
from service.config import Settings
from service.usecases.auth import TokenCheck
from service.usecases.batches import BatchService
from service.usecases.checkpoints import LogProofs
from service.usecases.commands import GameCommands
from service.usecases.creation import GameCreation
from service.usecases.listing import GameListing
from service.usecases.organisers import OrganiserService
from service.usecases.queries import GameQueries
from service.usecases.server_stream import ServerStream
from service.usecases.stream_tickets import TicketOffice
from service.usecases.timekeeper import Timekeeper


@dataclass(frozen=True)
class Runtime:
    """What the routes need, built once by the app factory."""

    service: Service
    streams: StreamHub

    @property
    def settings(self) -> Settings:
        return self.service.settings

    @property
    def stores(self) -> Stores:
        return self.service.stores

    @property
    def cache(self) -> StateCache:
        return self.service.cache

    @property
    def signing_keys(self) -> ServerKeys:
        return self.service.signing_keys

    @property
    def queries(self) -> GameQueries:
        return self.service.games.queries

    @property
    def commands(self) -> GameCommands:
        return self.service.games.commands

    @property
    def creation(self) -> GameCreation:
        return self.service.games.commands.creation

    @property
    def timekeeper(self) -> Timekeeper:
        return self.service.games.timekeeper

    @property
    def tokens(self) -> TokenCheck:
        """Every token check (:mod:`service.usecases.auth`)."""
        return self.service.tokens

    @property
    def server_stream(self) -> ServerStream:
        """The server's own stream: its keys' lifetimes (:mod:`service.usecases.server_stream`)."""
        return self.service.server_stream

    @property
    def log(self) -> LogProofs:
        """The transparency log's checkpoints and proofs (:mod:`service.usecases.checkpoints`)."""
        return self.service.log

    @property
    def tickets(self) -> TicketOffice:
        """The seats' stream tickets (:mod:`service.usecases.stream_tickets`)."""
        return self.service.tickets

    @property
    def organisers(self) -> OrganiserService:
        return self.service.organisers

    @property
    def batches(self) -> BatchService:
        return self.service.batches

    @property
    def listing(self) -> GameListing:
        """What listings say of each game (:mod:`service.usecases.listing`)."""
        return self.service.listing


def runtime() -> Runtime:
    """The runtime of the current Flask app."""
    rt = current_app.extensions["cablecar"]
    assert isinstance(rt, Runtime)
    return rt
