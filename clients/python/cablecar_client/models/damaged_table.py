from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="DamagedTable")



@_attrs_define
class DamagedTable:
    """ A table of the rounds whose game is damaged (see `TableResult.damaged_from`).

        Attributes:
            batch (str):
            table (int):
            game_id (str):
            damaged_from (int):
     """

    batch: str
    table: int
    game_id: str
    damaged_from: int





    def to_dict(self) -> dict[str, Any]:
        batch = self.batch

        table = self.table

        game_id = self.game_id

        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "batch": batch,
            "table": table,
            "game_id": game_id,
            "damaged_from": damaged_from,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        batch = d.pop("batch")

        table = d.pop("table")

        game_id = d.pop("game_id")

        damaged_from = d.pop("damaged_from")

        damaged_table = cls(
            batch=batch,
            table=table,
            game_id=game_id,
            damaged_from=damaged_from,
        )

        return damaged_table

