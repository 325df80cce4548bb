"""Batch use cases: create a tournament round's games at once, follow them,
and tabulate their results (as JSON rows or CSV).

A batch is created all or nothing: every table is set up in memory first
(:meth:`GameService.prepare_game`), a bad table is refused with its index,
and only then are the batch row and every game written in one transaction
(:meth:`TournamentStore.create_batch`).  Each game carries ``batch``,
``batch_table`` and ``organiser`` in its metadata, so ``GET /v1/games?batch=``
lists it and the organiser's webhooks cover it.
"""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import STATUS_FINISHED
from domain.registry import get_game
from events.database import Database
from events.store import GameRecord
from events.tournaments import BatchPage, BatchRecord, OrganiserRecord
from service.games import GameService, PreparedGame
from service.organisers import OrganiserService
from service.problems import ApiError

JSON = Any
#: Most tables one batch may hold.
MAX_TABLES = 100
#: Columns of the results CSV, one row per player of every table.
CSV_COLUMNS = (
    "batch",
    "table",
    "game_id",
    "type",
    "status",
    "seat",
    "name",
    "score",
    "rank",
    "winner",
    "completed_tickets",
)


@dataclass(frozen=True)
class TableSpec:
    """One table of a batch to create: its players, and optionally its seed
    and the seat that starts."""

    players: tuple[str, ...]
    seed: str | None = None
    start_seat: int = 0


@dataclass(frozen=True)
class CreatedBatch:
    """A new batch and its games, in table order, with their tokens (shown
    only here, once)."""

    batch: BatchRecord
    games: tuple[PreparedGame, ...]


@dataclass(frozen=True)
class PlayerResult:
    """One player's line in the results: ``score`` and ``rank`` are None
    until the game is finished (and ``score`` for games without points)."""

    seat: int
    name: str
    score: int | None
    rank: int | None
    winner: bool
    completed_tickets: int | None


@dataclass(frozen=True)
class TableResult:
    """The result of one table of a batch."""

    table: int
    game_id: str
    game_type: str
    status: str
    winners: tuple[int, ...]
    reason: str | None
    players: tuple[PlayerResult, ...]


def rank_players(names: Sequence[str], result: Mapping[str, JSON] | None) -> tuple[PlayerResult, ...]:
    """Each seat's score, rank and win from a game type's ``result``.

    With per-player totals (``ttr-sf``) the rank is 1 + the number of
    players with a better (total, completed tickets): the game's own
    tie-break, ties sharing a rank.  With winners only (``cable-car``) the
    winners rank 1 and everybody else 2; nobody is ranked when nobody won.
    Without a result (the game is not finished) nothing is ranked."""
    if result is None:
        return tuple(PlayerResult(seat, name, None, None, False, None) for seat, name in enumerate(names))
    winners = set(result.get("winners", []))
    lines = {int(p["seat"]): p for p in result.get("players", []) if "total" in p}
    if lines:
        keys = {
            seat: (int(line["total"]), int(line.get("completed_tickets", 0))) for seat, line in lines.items()
        }
        return tuple(
            PlayerResult(
                seat,
                name,
                keys[seat][0],
                1 + sum(1 for other in keys.values() if other > keys[seat]),
                seat in winners,
                int(lines[seat]["completed_tickets"]) if "completed_tickets" in lines[seat] else None,
            )
            for seat, name in enumerate(names)
        )
    return tuple(
        PlayerResult(
            seat, name, None, (1 if seat in winners else 2) if winners else None, seat in winners, None
        )
        for seat, name in enumerate(names)
    )


def _csv_cell(value: JSON) -> str:
    """A CSV cell; text that a spreadsheet would run as a formula is quoted
    with a leading apostrophe (player names are chosen by players)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def results_csv(batch_id: str, tables: Sequence[TableResult]) -> str:
    """The results as CSV (header :data:`CSV_COLUMNS`, one row per player)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for table in tables:
        for p in table.players:
            row = (
                batch_id,
                table.table,
                table.game_id,
                table.game_type,
                table.status,
                p.seat,
                p.name,
                p.score,
                p.rank,
                p.winner,
                p.completed_tickets,
            )
            writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue()


class BatchService:
    """Create batches and read them back (organiser only)."""

    def __init__(self, store: Database, games: GameService) -> None:
        self.store = store
        self.games = games
        self.organisers = OrganiserService(store)

    def create(
        self, organiser: OrganiserRecord, game_type: str, tables: Sequence[TableSpec], name: str | None = None
    ) -> CreatedBatch:
        """Set up every table, then store the batch and all its games in one
        transaction.  A refused table is a problem naming its index
        (``table``) and nothing is written."""
        try:
            get_game(game_type)
        except KeyError as e:
            raise ApiError(
                400, "invalid_request", f"unknown game type {game_type!r}; see /v1/games-types"
            ) from e
        if not 1 <= len(tables) <= MAX_TABLES:
            raise ApiError(400, "invalid_request", f"a batch has 1 to {MAX_TABLES} tables")
        batch_id = secrets.token_hex(8)
        prepared: list[PreparedGame] = []
        for index, table in enumerate(tables):
            extra = {"batch": batch_id, "batch_table": index, "organiser": organiser.organiser_id}
            try:
                prepared.append(
                    self.games.prepare_game(game_type, table.players, table.seed, table.start_seat, extra)
                )
            except ApiError as e:
                raise ApiError(
                    e.status, e.code, f"table {index}: {e.detail}", **{**e.extra, "table": index}
                ) from e
        batch = self.store.create_batch(
            batch_id,
            organiser.organiser_id,
            name,
            game_type,
            [(p.game_id, p.game_type, p.metadata, p.events, p.status) for p in prepared],
        )
        return CreatedBatch(batch, tuple(prepared))

    def batches(self, organiser: OrganiserRecord, limit: int, cursor: str | None) -> BatchPage:
        """A page of the organiser's batches, newest first."""
        return self.store.list_batches(organiser.organiser_id, limit, cursor)

    def games_of(
        self, organiser: OrganiserRecord, batch_id: str
    ) -> tuple[BatchRecord, tuple[GameRecord, ...]]:
        """The organiser's batch and its games in table order (404 / 403)."""
        batch = self.organisers.owned_batch(organiser, batch_id)
        records: list[GameRecord] = []
        cursor: str | None = None
        while True:
            page = self.store.list_games(batch=batch_id, limit=200, cursor=cursor)
            records.extend(page.games)
            cursor = page.next_cursor
            if cursor is None:
                break
        records.sort(key=lambda r: int(r.metadata.get("batch_table", 0)))
        return batch, tuple(records)

    def results(
        self, organiser: OrganiserRecord, batch_id: str
    ) -> tuple[BatchRecord, tuple[TableResult, ...]]:
        """Every table's result so far (unfinished tables are unranked)."""
        batch, records = self.games_of(organiser, batch_id)
        tables: list[TableResult] = []
        for record in records:
            names = [str(n) for n in record.metadata.get("players", [])]
            result: Mapping[str, JSON] | None = None
            if record.status == STATUS_FINISHED:
                loaded = self.games.load(record.game_id)
                result = loaded.game.result(loaded.state)
            tables.append(
                TableResult(
                    table=int(record.metadata.get("batch_table", 0)),
                    game_id=record.game_id,
                    game_type=record.game_type,
                    status=record.status,
                    winners=tuple(result.get("winners", ())) if result else (),
                    reason=result.get("reason") if result else None,
                    players=rank_players(names, result),
                )
            )
        return batch, tuple(tables)
