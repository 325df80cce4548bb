from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from typing import cast

if TYPE_CHECKING:
  from ..models.table_result import TableResult





T = TypeVar("T", bound="BatchResults")



@_attrs_define
class BatchResults:
    """ 
        Attributes:
            batch (str):
            ref (None | str): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`), or
                `null`: none.
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            finished (bool): True once every table is over (finished or cancelled).
            tables (list[TableResult]):
     """

    batch: str
    ref: None | str
    type_: GameTypeId
    finished: bool
    tables: list[TableResult]





    def to_dict(self) -> dict[str, Any]:
        from ..models.table_result import TableResult # noqa: PLC0415
        batch = self.batch

        ref: None | str
        ref = self.ref

        type_ = self.type_.value

        finished = self.finished

        tables = []
        for tables_item_data in self.tables:
            tables_item = tables_item_data.to_dict()
            tables.append(tables_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "batch": batch,
            "ref": ref,
            "type": type_,
            "finished": finished,
            "tables": tables,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.table_result import TableResult # noqa: PLC0415
        d = dict(src_dict)
        batch = d.pop("batch")

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        type_ = GameTypeId(d.pop("type"))




        finished = d.pop("finished")

        tables = []
        _tables = d.pop("tables")
        for tables_item_data in (_tables):
            tables_item = TableResult.from_dict(tables_item_data)



            tables.append(tables_item)


        batch_results = cls(
            batch=batch,
            ref=ref,
            type_=type_,
            finished=finished,
            tables=tables,
        )

        return batch_results

