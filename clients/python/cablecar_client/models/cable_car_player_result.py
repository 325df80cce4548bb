from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CableCarPlayerResult")



@_attrs_define
class CableCarPlayerResult:
    """ One seat of a finished cable-car game.

        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            standing (str): Whether a seat is still in (`in`; it stays `in` once the game ended if it played to the end),
                `resigned`,
                or `timed_out` (its deadline passed). A seat that resigned or timed out is out: its turns are skipped, it
                never wins and it ranks below every seat still in (see *Time controls, resignations and forfeits*). Open:
                treat a value you do not know as out.
     """

    seat: int
    standing: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        standing = self.standing


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seat": seat,
            "standing": standing,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        standing = d.pop("standing")

        cable_car_player_result = cls(
            seat=seat,
            standing=standing,
        )


        cable_car_player_result.additional_properties = d
        return cable_car_player_result

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
