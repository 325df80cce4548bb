from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.csv_result_row_winner import CsvResultRowWinner






T = TypeVar("T", bound="CsvResultRow")



@_attrs_define
class CsvResultRow:
    """ One row of the results CSV, its cells as text (empty for `null`).

        Attributes:
            batch (str):
            table (str):
            game_id (str):
            type_ (str):
            status (str):
            seat (str):
            name (str):
            score (str):
            rank (str):
            winner (CsvResultRowWinner):
            completed_tickets (str):
            standing (str): The seat's `standing` (`in`, `resigned`, `timed_out`; open).
            table_ref (str): The table's ref (empty if none).
            player_ref (str): The player's ref (empty if none).
            damaged_from (str): The table's `damaged_from` (empty for a sound table).
     """

    batch: str
    table: str
    game_id: str
    type_: str
    status: str
    seat: str
    name: str
    score: str
    rank: str
    winner: CsvResultRowWinner
    completed_tickets: str
    standing: str
    table_ref: str
    player_ref: str
    damaged_from: str





    def to_dict(self) -> dict[str, Any]:
        batch = self.batch

        table = self.table

        game_id = self.game_id

        type_ = self.type_

        status = self.status

        seat = self.seat

        name = self.name

        score = self.score

        rank = self.rank

        winner = self.winner.value

        completed_tickets = self.completed_tickets

        standing = self.standing

        table_ref = self.table_ref

        player_ref = self.player_ref

        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "batch": batch,
            "table": table,
            "game_id": game_id,
            "type": type_,
            "status": status,
            "seat": seat,
            "name": name,
            "score": score,
            "rank": rank,
            "winner": winner,
            "completed_tickets": completed_tickets,
            "standing": standing,
            "table_ref": table_ref,
            "player_ref": player_ref,
            "damaged_from": damaged_from,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        batch = d.pop("batch")

        table = d.pop("table")

        game_id = d.pop("game_id")

        type_ = d.pop("type")

        status = d.pop("status")

        seat = d.pop("seat")

        name = d.pop("name")

        score = d.pop("score")

        rank = d.pop("rank")

        winner = CsvResultRowWinner(d.pop("winner"))




        completed_tickets = d.pop("completed_tickets")

        standing = d.pop("standing")

        table_ref = d.pop("table_ref")

        player_ref = d.pop("player_ref")

        damaged_from = d.pop("damaged_from")

        csv_result_row = cls(
            batch=batch,
            table=table,
            game_id=game_id,
            type_=type_,
            status=status,
            seat=seat,
            name=name,
            score=score,
            rank=rank,
            winner=winner,
            completed_tickets=completed_tickets,
            standing=standing,
            table_ref=table_ref,
            player_ref=player_ref,
            damaged_from=damaged_from,
        )

        return csv_result_row

