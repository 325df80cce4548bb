from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Placement")



@_attrs_define
class Placement:
    """ One tile from the hand on a square; on an occupied square it is an exchange.

        Attributes:
            tile (str): A tile type of `GET /v1/boards/cable-car` (a `CableCarTileId`); a name that is no tile type, or no
                tile of the seat's hand, is refused by the rules (`422 illegal_action`).
            row (int):
            col (int):
            rotation (int): Clockwise quarter turns applied to the tile type's segments.
     """

    tile: str
    row: int
    col: int
    rotation: int





    def to_dict(self) -> dict[str, Any]:
        tile = self.tile

        row = self.row

        col = self.col

        rotation = self.rotation


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "tile": tile,
            "row": row,
            "col": col,
            "rotation": rotation,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tile = d.pop("tile")

        row = d.pop("row")

        col = d.pop("col")

        rotation = d.pop("rotation")

        placement = cls(
            tile=tile,
            row=row,
            col=col,
            rotation=rotation,
        )

        return placement

