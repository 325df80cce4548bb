from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CableCarStop")



@_attrs_define
class CableCarStop:
    """ 
        Attributes:
            letter (str):
            name (str):
            row (int):
            col (int):
     """

    letter: str
    name: str
    row: int
    col: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        letter = self.letter

        name = self.name

        row = self.row

        col = self.col


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "letter": letter,
            "name": name,
            "row": row,
            "col": col,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        letter = d.pop("letter")

        name = d.pop("name")

        row = d.pop("row")

        col = d.pop("col")

        cable_car_stop = cls(
            letter=letter,
            name=name,
            row=row,
            col=col,
        )


        cable_car_stop.additional_properties = d
        return cable_car_stop

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
