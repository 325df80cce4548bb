from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TtrRoute")



@_attrs_define
class TtrRoute:
    """ 
        Attributes:
            id (str):
            from_ (str):
            to (str):
            length (int):
            color (str): A card colour, or `gray` (any one colour).
            ferries (int): Ferry symbols on the route (each needs a ferry card).
            double_of (None | str | Unset): The parallel route of a double route.
     """

    id: str
    from_: str
    to: str
    length: int
    color: str
    ferries: int
    double_of: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        from_ = self.from_

        to = self.to

        length = self.length

        color = self.color

        ferries = self.ferries

        double_of: None | str | Unset
        if isinstance(self.double_of, Unset):
            double_of = UNSET
        else:
            double_of = self.double_of


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "from": from_,
            "to": to,
            "length": length,
            "color": color,
            "ferries": ferries,
        })
        if double_of is not UNSET:
            field_dict["double_of"] = double_of

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        from_ = d.pop("from")

        to = d.pop("to")

        length = d.pop("length")

        color = d.pop("color")

        ferries = d.pop("ferries")

        def _parse_double_of(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        double_of = _parse_double_of(d.pop("double_of", UNSET))


        ttr_route = cls(
            id=id,
            from_=from_,
            to=to,
            length=length,
            color=color,
            ferries=ferries,
            double_of=double_of,
        )


        ttr_route.additional_properties = d
        return ttr_route

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
