"""Batch use cases: create a tournament round's games at once, follow them,
and tabulate their results (as JSON rows or CSV).

A batch is created all or nothing: every table is set up in memory first
(:meth:`GameCommands.new_game`), a bad table is refused with its index,
and only then are the batch row and every game written in one transaction
(:meth:`TournamentStore.create_batch`).  Each game carries ``batch``,
``batch_table`` and ``organiser`` in its metadata, so ``GET /v1/games?batch=``
lists it and the organiser's webhooks cover it; the organiser's refs
(``ref`` of the batch, ``ref`` of each table, ``player_refs``) and a
scheduled round's ``starts_at`` are stored with each game too, fixed from
its creation on.

A round created with ``start_at`` waits: each game records
``game_scheduled`` after its opening events and takes no action until its
``game_started``, appended at that time by the timekeeper
(:mod:`service.usecases.timekeeper`) or at once by :meth:`BatchService.start`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from domain.core import JSON, STATUS_CANCELLED, STATUS_FINISHED, Standing
from domain.custody import GameStarted
from domain.registry import game_definition
from events.encoding.timestamps import format_timestamp
from events.recorders.deadlines import DeadlineIndex
from events.recorders.tournaments import BatchPage, BatchRecord, OrganiserRecord, TournamentStore
from events.records import GameRecord, IntegrityError, StaleVersion
from service.adapters.idempotency import CreationKey
from service.errors import BrokenGame, GameDamaged, InvalidRequest, ServiceError
from service.usecases.batch_results import TableResult, rank_players
from service.usecases.bot_seats import METADATA_KEY as BOTS_KEY
from service.usecases.commands import GameCommands
from service.usecases.creation import GameRequest, NewGame
from service.usecases.listing import GameListing, Listed
from service.usecases.loaded import Loaded
from service.usecases.organisers import OrganiserService
from service.usecases.presentation import player_refs

#: the statuses of a table that will not change any more
ENDED = (STATUS_FINISHED, STATUS_CANCELLED)
#: how far ahead a round may be scheduled
MAX_START_AHEAD = timedelta(days=7)
#: a batch and its games in table order, each with what its listing says of it
BatchTables = tuple[BatchRecord, tuple[tuple[GameRecord, Listed], ...]]


@dataclass(frozen=True)
class TableSpec:
    """One table of a batch to create: its players, and optionally its seed
    (mixed with a server secret unless ``open_deal``) and the seat that starts."""

    players: tuple[str, ...]
    seed: str | None = None
    start_seat: int = 0
    open_deal: bool = False
    time_control: Mapping[str, JSON] | None = None
    #: per seat, the server-side bot that plays it (None: a person)
    bots: tuple[str | None, ...] | None = None
    #: the organiser's own id of the table and, per seat, of its player (None: none)
    ref: str | None = None
    player_refs: tuple[str | None, ...] | None = None


def table_specs(body: Mapping[str, Any]) -> list[TableSpec]:
    """The tables a ``POST /v1/batches`` body asks for (a table without its own
    time control takes the batch's)."""
    return [
        TableSpec(tuple(p["name"] for p in t["players"]), t["seed"], t["start_seat"], t["open_deal"],
                  t["time_control"] if t["time_control"] is not None else body["time_control"],
                  tuple(p["bot"] for p in t["players"]), t["ref"], tuple(p["ref"] for p in t["players"]))
        for t in body["tables"]
    ]


@dataclass(frozen=True)
class TableCreated:
    """One game of a new batch as its creation answers it."""

    game_id: str
    status: str
    version: int
    metadata: Mapping[str, JSON]
    seat_tokens: tuple[str | None, ...]
    host_token: str

    @classmethod
    def of(cls, game: NewGame) -> TableCreated:
        return cls(game.game_id, game.status, len(game.events), game.metadata, game.seat_tokens, game.host_token)


@dataclass(frozen=True)
class CreatedBatch:
    """A new batch and its games, in table order, with their tokens (shown
    only here, once)."""

    batch: BatchRecord
    games: tuple[TableCreated, ...]


class BatchService:
    """Create batches and read them back (organiser only)."""

    def __init__(self, tournaments: TournamentStore, clock: DeadlineIndex, organisers: OrganiserService,
                 commands: GameCommands, max_tables: int, listing: GameListing | None = None) -> None:
        """``clock``: the database's, which starts rounds; ``listing``: what
        the batch's answers say of each game (by default one of its own)."""
        self.tournaments = tournaments
        self.clock = clock
        self.max_tables = max_tables
        self.commands = commands
        self.creation = commands.creation
        self.queries = commands.queries
        self.organisers = organisers
        self.listing = GameListing(self.queries) if listing is None else listing

    def check_size(self, tables: int) -> None:
        """InvalidRequest unless a batch of ``tables`` tables may be created
        (``CABLECAR_MAX_BATCH_TABLES``)."""
        if not 1 <= tables <= self.max_tables:
            message = f"a batch has 1 to {self.max_tables} tables, not {tables}"
            raise InvalidRequest(message, errors=[{"field": "tables", "message": message}])

    def created_with(self, organiser: OrganiserRecord, key: CreationKey) -> CreatedBatch | None:
        """The batch an Idempotency-Key created, as its creation answered (the
        tokens derived again), or None; IdempotencyKeyReused when the key
        made it for another request."""
        batch = self.tournaments.get_batch(key.identifier("batch"))
        if batch is None:
            return None
        games: list[TableCreated] = []
        for table in range(batch.tables):
            created = self.creation.created_with(key, ("table", str(table)))
            if created is None:  # a batch is written whole: its games are there
                raise BrokenGame(f"batch {batch.batch_id} has no table {table}")
            meta = created.record.metadata
            games.append(TableCreated(created.record.game_id, created.status, created.version, meta,
                                      created.seat_tokens, created.host_token))
        return CreatedBatch(batch, tuple(games))

    def create(
        self,
        organiser: OrganiserRecord,
        game_type: str,
        tables: Sequence[TableSpec],
        name: str | None = None,
        key: CreationKey | None = None,
        ref: str | None = None,
        start_at: datetime | None = None,
        charge: Callable[[int], None] | None = None,
    ) -> CreatedBatch:
        """Set up every table, then store the batch and all its games in one
        transaction.  A refused table is a problem naming its index
        (``table``) and nothing is written.  With an Idempotency-Key, a batch
        it already created is answered again.  ``ref`` is the organiser's id
        of the batch; with ``start_at`` (UTC, after now and at most
        :data:`MAX_START_AHEAD` ahead by the database's clock) its games wait
        until then.  ``charge`` (a rate limit, which may refuse before anything
        is written) is called with the number of tables only for a batch about
        to be created, never for a retry the key answers."""
        if key is not None and (before := self.created_with(organiser, key)) is not None:
            return before
        self.check_size(len(tables))
        if charge is not None:
            charge(len(tables))  # every game of it counts
        try:
            game_definition(game_type)
        except KeyError as e:
            raise InvalidRequest(f"unknown game type {game_type!r}; see /v1/game-types") from e
        starts_at = None if start_at is None else format_timestamp(self._checked_start(start_at))
        batch_id = key.identifier("batch") if key else secrets.token_hex(8)
        prepared: list[NewGame] = []
        for index, table in enumerate(tables):
            extra: dict[str, JSON] = {"batch": batch_id, "batch_table": index, "organiser": organiser.organiser_id}
            if ref is not None:
                extra["batch_ref"] = ref
            try:
                prepared.append(
                    self.creation.new_game(
                        GameRequest(game_type, table.players, table.seed, table.start_seat, extra, table.open_deal,
                                    table.time_control, table.bots, ref=table.ref, player_refs=table.player_refs,
                                    starts_at=starts_at),
                        key, ("table", str(index)),
                    )
                )
            except ServiceError as e:
                raise e.with_detail(f"table {index}: {e.detail}", table=index) from e
        try:
            batch = self.tournaments.create_batch(
                batch_id,
                organiser.organiser_id,
                name,
                game_type,
                [(p.game_id, p.game_type, p.metadata, p.events, p.status) for p in prepared],
                ref,
                start_at,
            )
        except IntegrityError:
            # a concurrent request with the same key created it first
            if key is None or (before := self.created_with(organiser, key)) is None:
                raise
            return before
        for p in prepared:
            if self.queries.timekeeper is not None and (p.metadata.get("time_control") or starts_at):
                # the sweeper finds a timed table's first deadline (or the round's start) in the index
                self.queries.timekeeper.record(self.queries.load(p.game_id, settle=False))
            if self.creation.bot_turns is not None and p.metadata.get(BOTS_KEY):
                # the bot runners find a table whose bot seat acts first in theirs
                self.creation.bot_turns.record(self.queries.load(p.game_id, settle=False))
        return CreatedBatch(batch, tuple(TableCreated.of(p) for p in prepared))

    def _checked_start(self, start_at: datetime) -> datetime:
        """``start_at``, once it is after now and at most :data:`MAX_START_AHEAD` ahead (the database's time)."""
        now = self.clock.database_time()
        if start_at <= now:
            message = f"start_at must be in the future (it is {format_timestamp(now)} now)"
        elif start_at > now + MAX_START_AHEAD:
            message = f"start_at may be at most 7 days ahead (until {format_timestamp(now + MAX_START_AHEAD)})"
        else:
            return start_at
        raise InvalidRequest(message, errors=[{"field": "start_at", "message": message}])

    def batches(
        self, organiser: OrganiserRecord, limit: int, cursor: str | None, ref_prefix: str | None = None
    ) -> BatchPage:
        """A page of the organiser's batches, newest first (those whose ref starts with ``ref_prefix``)."""
        return self.tournaments.list_batches(organiser.organiser_id, limit, cursor, ref_prefix)

    def start(self, organiser: OrganiserRecord, batch_id: str) -> BatchTables:
        """Start every table of the batch still waiting for its start, now
        (one ``game_started`` each, back to back); tables already started or
        ended are left as they are.  The batch and its games after."""
        return self._each_table(organiser, batch_id, lambda loaded: [GameStarted()] if loaded.scheduled else [])

    def cancel(self, organiser: OrganiserRecord, batch_id: str) -> BatchTables:
        """End every table of the batch not yet ended with no result
        (``game_cancelled``, as its host would), scheduled ones included; a
        damaged table is left as it is."""
        return self._each_table(
            organiser, batch_id, lambda loaded: [] if loaded.finished else loaded.definition.cancel(loaded.state)
        )

    def _each_table(self, organiser: OrganiserRecord, batch_id: str,
                    events_for: Callable[[Loaded], list[Any]]) -> BatchTables:
        _, records = self.games_of(organiser, batch_id)
        for record in records:
            try:
                self._decided(record.game_id, events_for)
            except GameDamaged:
                continue  # a damaged table takes no write: it stays as it is, the others go on
        return self.tables_of(organiser, batch_id)

    def _decided(self, game_id: str, events_for: Callable[[Loaded], list[Any]]) -> None:
        """Append to the game what ``events_for`` decides on it (nothing: nothing)."""
        for _attempt in range(3):  # a table another writer moved meanwhile is decided again
            loaded = self.queries.load(game_id)
            events = events_for(loaded)
            if not events:
                return
            try:
                self.commands.append_events(loaded, None, events)
                return
            except StaleVersion:
                continue

    def games_of(
        self, organiser: OrganiserRecord, batch_id: str
    ) -> tuple[BatchRecord, tuple[GameRecord, ...]]:
        """The organiser's batch and its games in table order (404 / 403)."""
        batch = self.organisers.owned_batch(organiser, batch_id)
        records: list[GameRecord] = []
        cursor: str | None = None
        while True:
            page = self.queries.reader.list_games(batch=batch_id, limit=200, cursor=cursor)
            records.extend(page.games)
            cursor = page.next_cursor
            if cursor is None:
                break
        records.sort(key=lambda r: int(r.metadata.get("batch_table", 0)))
        return batch, tuple(records)

    def tables_of(self, organiser: OrganiserRecord, batch_id: str) -> BatchTables:
        """:meth:`games_of`, each game with what its listing says of it (its
        view's status, and ``damaged_from`` for a damaged one)."""
        batch, records = self.games_of(organiser, batch_id)
        return batch, tuple(self.listing.page(records))

    def results(
        self, organiser: OrganiserRecord, batch_id: str
    ) -> tuple[BatchRecord, tuple[TableResult, ...]]:
        """Every table's result so far (unfinished tables are unranked; a
        damaged one as its view shows it, marked ``damaged_from``)."""
        batch, records = self.games_of(organiser, batch_id)
        return batch, tuple(self._table_result(record) for record in records)

    def _table_result(self, record: GameRecord) -> TableResult:
        names = [str(n) for n in record.metadata.get("players", [])]
        loaded: Loaded | None = None
        listed = Listed(record.status)
        if (record.status in ENDED or record.metadata.get("time_control") or record.metadata.get("starts_at")
                or not self.listing.sound(record)):
            # a timed table's row may lag a timeout due now (reading settles it); a damaged one is read as its
            # view reads it, up to its last good event
            loaded, listed = self.listing.viewed(record)
        result: Mapping[str, JSON] | None = None
        standings: tuple[Standing, ...] | None = None
        seat_standings: tuple[str, ...] = ()
        if loaded is not None:
            result = loaded.definition.result(loaded.state)
            standings = loaded.definition.standings(loaded.state)
            seat_standings = loaded.definition.seat_standings(loaded.state)
        return TableResult(
            table=int(record.metadata.get("batch_table", 0)),
            game_id=record.game_id,
            game_type=record.game_type,
            status=listed.status,
            winners=tuple(result.get("winners", ())) if result else (),
            reason=result.get("reason") if result else None,
            players=rank_players(names, standings, seat_standings, player_refs(record.metadata, len(names))),
            ref=_text(record.metadata.get("ref")),
            damaged_from=listed.damaged_from,
        )


def _text(value: JSON) -> str | None:
    return value if isinstance(value, str) else None
