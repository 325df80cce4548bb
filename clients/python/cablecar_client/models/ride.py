from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Ride")



@_attrs_define
class Ride:
    """ 
        Attributes:
            from_ (str): The start terminal.
            to (str): The destination terminal.
            spaces (list[Any]): Every space of the ride in order, the start terminal first and the destination last; squares
                as `[row, col]`, terminal loops by name.
            position (int): Index into `spaces` of the tram.
            length (int): Spaces to drive from start to destination.
     """

    from_: str
    to: str
    spaces: list[Any]
    position: int
    length: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        to = self.to

        spaces = self.spaces



        position = self.position

        length = self.length


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "from": from_,
            "to": to,
            "spaces": spaces,
            "position": position,
            "length": length,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to")

        spaces = cast(list[Any], d.pop("spaces"))


        position = d.pop("position")

        length = d.pop("length")

        ride = cls(
            from_=from_,
            to=to,
            spaces=spaces,
            position=position,
            length=length,
        )


        ride.additional_properties = d
        return ride

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
