from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.place_souvenir_stack_type import PlaceSouvenirStackType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PlaceSouvenirStack")



@_attrs_define
class PlaceSouvenirStack:
    """ `ttr-sf`, setup: place a set-aside souvenir stack on a location without a stack.

        Attributes:
            type_ (PlaceSouvenirStackType): The action name `place_souvenir_stack` (a one-value `enum` in a schema of its
                own, so that generators which ignore `const` still tell the action bodies apart by `type`).
            symbol (str): One of the view's `set_aside` symbols.
            location (str): A location id without a stack.
            expected_version (int | None | Unset): Refuse the action with `409 stale_version` unless the game is at exactly
                this version.
     """

    type_: PlaceSouvenirStackType
    symbol: str
    location: str
    expected_version: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        symbol = self.symbol

        location = self.location

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "symbol": symbol,
            "location": location,
        })
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = PlaceSouvenirStackType(d.pop("type"))




        symbol = d.pop("symbol")

        location = d.pop("location")

        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))


        place_souvenir_stack = cls(
            type_=type_,
            symbol=symbol,
            location=location,
            expected_version=expected_version,
        )

        return place_souvenir_stack

