from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.cable_car_terminal import CableCarTerminal





T = TypeVar("T", bound="CableCarLine")



@_attrs_define
class CableCarLine:
    """ 
        Attributes:
            id (str):
            color (str):
            terminals (list[CableCarTerminal]):
     """

    id: str
    color: str
    terminals: list[CableCarTerminal]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cable_car_terminal import CableCarTerminal # noqa: PLC0415
        id = self.id

        color = self.color

        terminals = []
        for terminals_item_data in self.terminals:
            terminals_item = terminals_item_data.to_dict()
            terminals.append(terminals_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "color": color,
            "terminals": terminals,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cable_car_terminal import CableCarTerminal # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        color = d.pop("color")

        terminals = []
        _terminals = d.pop("terminals")
        for terminals_item_data in (_terminals):
            terminals_item = CableCarTerminal.from_dict(terminals_item_data)



            terminals.append(terminals_item)


        cable_car_line = cls(
            id=id,
            color=color,
            terminals=terminals,
        )


        cable_car_line.additional_properties = d
        return cable_car_line

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
