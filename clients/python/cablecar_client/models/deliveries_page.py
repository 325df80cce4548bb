from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.delivery import Delivery





T = TypeVar("T", bound="DeliveriesPage")



@_attrs_define
class DeliveriesPage:
    """ 
        Attributes:
            webhook_id (str):
            deliveries (list[Delivery]):
            next_cursor (None | str):
     """

    webhook_id: str
    deliveries: list[Delivery]
    next_cursor: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery import Delivery # noqa: PLC0415
        webhook_id = self.webhook_id

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)



        next_cursor: None | str
        next_cursor = self.next_cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "webhook_id": webhook_id,
            "deliveries": deliveries,
            "next_cursor": next_cursor,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery import Delivery # noqa: PLC0415
        d = dict(src_dict)
        webhook_id = d.pop("webhook_id")

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in (_deliveries):
            deliveries_item = Delivery.from_dict(deliveries_item_data)



            deliveries.append(deliveries_item)


        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))


        deliveries_page = cls(
            webhook_id=webhook_id,
            deliveries=deliveries,
            next_cursor=next_cursor,
        )

        return deliveries_page

