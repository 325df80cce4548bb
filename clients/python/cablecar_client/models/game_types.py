from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.game_type_info import GameTypeInfo





T = TypeVar("T", bound="GameTypes")



@_attrs_define
class GameTypes:
    """ 
        Attributes:
            types (list[GameTypeInfo]):
     """

    types: list[GameTypeInfo]





    def to_dict(self) -> dict[str, Any]:
        from ..models.game_type_info import GameTypeInfo # noqa: PLC0415
        types = []
        for types_item_data in self.types:
            types_item = types_item_data.to_dict()
            types.append(types_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "types": types,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_type_info import GameTypeInfo # noqa: PLC0415
        d = dict(src_dict)
        types = []
        _types = d.pop("types")
        for types_item_data in (_types):
            types_item = GameTypeInfo.from_dict(types_item_data)



            types.append(types_item)


        game_types = cls(
            types=types,
        )

        return game_types

