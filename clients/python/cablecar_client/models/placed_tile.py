from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cable_car_tile_id import CableCarTileId






T = TypeVar("T", bound="PlacedTile")



@_attrs_define
class PlacedTile:
    """ 
        Attributes:
            row (int):
            col (int):
            tile (CableCarTileId): A tile type of `GET /v1/boards/cable-car`.
            rotation (int): Clockwise quarter turns (N→E→S→W) applied to the tile type's segments.
     """

    row: int
    col: int
    tile: CableCarTileId
    rotation: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        row = self.row

        col = self.col

        tile = self.tile.value

        rotation = self.rotation


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "row": row,
            "col": col,
            "tile": tile,
            "rotation": rotation,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        row = d.pop("row")

        col = d.pop("col")

        tile = CableCarTileId(d.pop("tile"))




        rotation = d.pop("rotation")

        placed_tile = cls(
            row=row,
            col=col,
            tile=tile,
            rotation=rotation,
        )


        placed_tile.additional_properties = d
        return placed_tile

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
