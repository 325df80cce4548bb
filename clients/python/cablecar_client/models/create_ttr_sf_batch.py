from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.ttr_sf_table import TtrSfTable





T = TypeVar("T", bound="CreateTtrSfBatch")



@_attrs_define
class CreateTtrSfBatch:
    """ A batch of `ttr-sf` games, one per table.

        Attributes:
            type_ (Literal['ttr-sf']):
            tables (list[TtrSfTable]): At most the server's table cap (`CABLECAR_MAX_BATCH_TABLES`, 50 by default; more is
                `400`).
            name (None | str | Unset): A label, e.g. the round (no control characters).
     """

    type_: Literal['ttr-sf']
    tables: list[TtrSfTable]
    name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ttr_sf_table import TtrSfTable # noqa: PLC0415
        type_ = self.type_

        tables = []
        for tables_item_data in self.tables:
            tables_item = tables_item_data.to_dict()
            tables.append(tables_item)



        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "tables": tables,
        })
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ttr_sf_table import TtrSfTable # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['ttr-sf'] , d.pop("type"))
        if type_ != 'ttr-sf':
            raise ValueError(f"type must match const 'ttr-sf', got '{type_}'")

        tables = []
        _tables = d.pop("tables")
        for tables_item_data in (_tables):
            tables_item = TtrSfTable.from_dict(tables_item_data)



            tables.append(tables_item)


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        create_ttr_sf_batch = cls(
            type_=type_,
            tables=tables,
            name=name,
        )

        return create_ttr_sf_batch

