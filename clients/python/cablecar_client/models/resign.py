from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.resign_type import ResignType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Resign")



@_attrs_define
class Resign:
    """ Both game types: the sending seat gives up and is out (writes `seat_resigned`; see *Time controls,
    resignations and forfeits*). Accepted at any time before the end, also out of turn and during setup; only
    for the token's own seat. A seat already out: `422 illegal_action` (`already_out`); after the end:
    `409 game_finished`.

        Attributes:
            type_ (ResignType): The action name `resign` (a one-value `enum` in a schema of its own, so that generators
                which ignore `const` still tell the action bodies apart by `type`).
            expected_version (int | None | Unset): Refuse the action with `409 stale_version` unless the game is at exactly
                this version.
     """

    type_: ResignType
    expected_version: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = ResignType(d.pop("type"))




        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))


        resign = cls(
            type_=type_,
            expected_version=expected_version,
        )

        return resign

