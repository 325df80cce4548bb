"""A batch's results as organisers read them: each table's players ranked by
the game's own standings, and the CSV of every player of every table.

A damaged table (a stored event of its game is not genuine) is answered as
its view shows it, up to its last good event, and marked with
``damaged_from`` (the seq of the first bad event): its players are ranked
only if the game had ended before the damage; the other tables are
answered as always."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from domain.core import JSON, Standing

#: Columns of the results CSV, one row per player of every table (those added later go last: older readers
#: keep their columns).
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
    "standing",
    "table_ref",
    "player_ref",
    "damaged_from",
)


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
    #: ``in`` (played on to the end), ``resigned`` or ``timed_out``
    standing: str = "in"
    #: the organiser's id of the player (None: none given)
    ref: str | None = None


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
    #: the organiser's id of the table (None: none given)
    ref: str | None = None
    #: for a damaged table, the seq of its game's first bad event (None: a sound table)
    damaged_from: int | None = None


def rank_players(
    names: Sequence[str], standings: Sequence[Standing] | None, seat_standings: Sequence[str] = (),
    refs: Sequence[str | None] = (),
) -> tuple[PlayerResult, ...]:
    """Each seat's score, rank and win from the game's ``standings``
    (:meth:`domain.core.GameDefinition.standings`), and whether it is still
    in, resigned or timed out; without standings (the game is not finished)
    nothing is ranked."""
    by_seat = {s.seat: s for s in standings or ()}
    return tuple(
        PlayerResult(seat, name, None, None, False, None, _standing(seat_standings, seat), _ref(refs, seat))
        if (s := by_seat.get(seat)) is None
        else PlayerResult(seat, name, s.score, s.rank, s.winner, s.completed_tickets, _standing(seat_standings, seat),
                          _ref(refs, seat))
        for seat, name in enumerate(names)
    )


def _ref(refs: Sequence[str | None], seat: int) -> str | None:
    return refs[seat] if seat < len(refs) else None


def _standing(seat_standings: Sequence[str], seat: int) -> str:
    return seat_standings[seat] if seat < len(seat_standings) else "in"


def csv_cell(value: JSON) -> str:
    """A CSV cell; text that a spreadsheet would run as a formula is quoted
    with a leading apostrophe (player names are chosen by players).  Numbers
    are written as they are: ``-14`` is a score, not a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
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
                p.standing,
                table.ref,
                p.ref,
                table.damaged_from,
            )
            writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()
