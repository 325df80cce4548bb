from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cable_car_line_id import CableCarLineId
from typing import cast






T = TypeVar("T", bound="CableCarMe")



@_attrs_define
class CableCarMe:
    """ The caller's own secrets.

        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            line (CableCarLineId): A line of `GET /v1/boards/cable-car` (which two terminals to join).
            route (list[str]): The stop letters the caller's track must pass.
            route_card (str): The id of the caller's route card.
            terminals (list[str]): The names of the two terminals of the caller's line.
     """

    seat: int
    line: CableCarLineId
    route: list[str]
    route_card: str
    terminals: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        line = self.line.value

        route = self.route



        route_card = self.route_card

        terminals = self.terminals




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seat": seat,
            "line": line,
            "route": route,
            "route_card": route_card,
            "terminals": terminals,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        line = CableCarLineId(d.pop("line"))




        route = cast(list[str], d.pop("route"))


        route_card = d.pop("route_card")

        terminals = cast(list[str], d.pop("terminals"))


        cable_car_me = cls(
            seat=seat,
            line=line,
            route=route,
            route_card=route_card,
            terminals=terminals,
        )


        cable_car_me.additional_properties = d
        return cable_car_me

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
