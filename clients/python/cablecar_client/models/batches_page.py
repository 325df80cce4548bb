from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.batch_summary import BatchSummary





T = TypeVar("T", bound="BatchesPage")



@_attrs_define
class BatchesPage:
    """ 
        Attributes:
            batches (list[BatchSummary]):
            next_cursor (None | str):
     """

    batches: list[BatchSummary]
    next_cursor: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_summary import BatchSummary # noqa: PLC0415
        batches = []
        for batches_item_data in self.batches:
            batches_item = batches_item_data.to_dict()
            batches.append(batches_item)



        next_cursor: None | str
        next_cursor = self.next_cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "batches": batches,
            "next_cursor": next_cursor,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_summary import BatchSummary # noqa: PLC0415
        d = dict(src_dict)
        batches = []
        _batches = d.pop("batches")
        for batches_item_data in (_batches):
            batches_item = BatchSummary.from_dict(batches_item_data)



            batches.append(batches_item)


        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))


        batches_page = cls(
            batches=batches,
            next_cursor=next_cursor,
        )

        return batches_page

