from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SeatName")



@_attrs_define
class SeatName:
    """ 
        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            name (str):
     """

    seat: int
    name: str





    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "seat": seat,
            "name": name,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        name = d.pop("name")

        seat_name = cls(
            seat=seat,
            name=name,
        )

        return seat_name

