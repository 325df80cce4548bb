"""Standings across rounds: each ``player_ref``'s results summed over the
batches an organiser names (an event's rounds), for the organiser's
convenience; pairing the next round stays the tournament software's job.

Only finished tables count towards wins, points and completed tickets (a
cancelled or unfinished table counts as played, with nothing won).  Seats
without a player ref are not in the standings (``unreferenced_seats`` says
how many there were).  Ranking (the tie-breaks, in order; players equal on
all of them share a rank, listed by ``player_ref``):

* ``ttr-sf``: wins, then points (each game's total), then completed tickets;
* ``cable-car``: wins (the game has no points).

A damaged table (a stored event of its game is not genuine) counts as its
view shows it, up to its last good event: as played and unfinished unless
the game had ended before the damage.  The standings name every damaged
table (``damaged_tables``) and count each player's (``damaged_games``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.core import STATUS_FINISHED
from events.recorders.tournaments import OrganiserRecord
from service.errors import InvalidRequest
from service.usecases.batch_results import TableResult, csv_cell
from service.usecases.batches import ENDED, BatchService

#: the tie-breaks of each game type, in order (what the answer lists too)
TIE_BREAKS = {"ttr-sf": ("wins", "points", "completed_tickets")}
DEFAULT_TIE_BREAKS = ("wins",)

#: the columns of the CSV (those added later go last: older readers keep their columns)
CSV_COLUMNS = ("rank", "player_ref", "name", "games", "finished", "wins", "points", "completed_tickets",
               "damaged_games")


@dataclass
class PlayerTotal:
    """One player's totals so far (``points`` and ``completed_tickets`` None where the game has none)."""

    player_ref: str
    name: str
    games: int = 0
    finished: int = 0
    wins: int = 0
    points: int | None = None
    completed_tickets: int | None = None
    #: of ``games``, those at a damaged table
    damaged_games: int = 0
    rank: int = 0
    _order: tuple[int, ...] = field(default=(), repr=False)

    def add(self, number: int | None, attribute: str) -> None:
        if number is not None:
            setattr(self, attribute, (getattr(self, attribute) or 0) + number)


@dataclass(frozen=True)
class DamagedTable:
    """A table of the rounds whose game is damaged from seq ``damaged_from`` on."""

    batch: str
    table: int
    game_id: str
    damaged_from: int


@dataclass(frozen=True)
class Standings:
    """The standings over the rounds named."""

    game_type: str
    batches: tuple[str, ...]
    finished: bool
    tie_breaks: tuple[str, ...]
    unreferenced_seats: int
    players: tuple[PlayerTotal, ...]
    #: the tables of the rounds whose game is damaged, in the order of the rounds
    damaged_tables: tuple[DamagedTable, ...] = ()


def standings(batches: BatchService, organiser: OrganiserRecord, batch_ids: Sequence[str]) -> Standings:
    """Sum each player ref's results over ``batch_ids`` (the organiser's
    batches, all of one game type; each named once)."""
    if len(set(batch_ids)) != len(batch_ids):
        raise InvalidRequest("batch: each round is named once", errors=[{"field": "batch", "message": "named twice"}])
    rounds = [batches.results(organiser, batch_id) for batch_id in batch_ids]
    types = {batch.game_type for batch, _ in rounds}
    if len(types) != 1:
        message = f"the rounds summed must be of one game type, not {', '.join(sorted(types))}"
        raise InvalidRequest(message, errors=[{"field": "batch", "message": message}])
    game_type = types.pop()
    totals: dict[str, PlayerTotal] = {}
    unreferenced = 0
    for _, tables in rounds:
        for table in tables:
            unreferenced += _add_table(totals, table)
    tie_breaks = TIE_BREAKS.get(game_type, DEFAULT_TIE_BREAKS)
    ranked = _ranked(list(totals.values()), tie_breaks)
    finished = all(t.status in ENDED for _, tables in rounds for t in tables)
    damaged = tuple(DamagedTable(batch.batch_id, t.table, t.game_id, t.damaged_from)
                    for batch, tables in rounds for t in tables if t.damaged_from is not None)
    return Standings(game_type, tuple(batch_ids), finished, tie_breaks, unreferenced, ranked, damaged)


def _add_table(totals: dict[str, PlayerTotal], table: TableResult) -> int:
    """Add one table's players to ``totals``; how many of its seats had no ref."""
    missing = 0
    for player in table.players:
        if player.ref is None:
            missing += 1
            continue
        total = totals.setdefault(player.ref, PlayerTotal(player.ref, player.name))
        total.name = player.name  # the latest round's name
        total.games += 1
        total.damaged_games += 0 if table.damaged_from is None else 1
        if table.status != STATUS_FINISHED:
            continue
        total.finished += 1
        total.wins += 1 if player.winner else 0
        total.add(player.score, "points")
        total.add(player.completed_tickets, "completed_tickets")
    return missing


def _ranked(players: list[PlayerTotal], tie_breaks: Sequence[str]) -> tuple[PlayerTotal, ...]:
    """``players`` best first by ``tie_breaks`` (higher is better); equal ones share a rank."""
    for p in players:
        p._order = tuple(getattr(p, name) or 0 for name in tie_breaks)
    players.sort(key=lambda p: p.player_ref)
    players.sort(key=lambda p: p._order, reverse=True)
    for place, p in enumerate(players):
        before = players[place - 1] if place else None
        p.rank = before.rank if before is not None and before._order == p._order else place + 1
    return tuple(players)


def standings_csv(result: Standings) -> str:
    """The standings as CSV (header :data:`CSV_COLUMNS`, one row per player ref, best first)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for p in result.players:
        row = (p.rank, p.player_ref, p.name, p.games, p.finished, p.wins, p.points, p.completed_tickets,
               p.damaged_games)
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()
