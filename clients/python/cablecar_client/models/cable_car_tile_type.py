from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cable_car_tile_id import CableCarTileId
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CableCarTileType")



@_attrs_define
class CableCarTileType:
    """ 
        Attributes:
            id (CableCarTileId): A tile type of `GET /v1/boards/cable-car`.
            segments (list[list[str]]):
            tree (bool): Tree tiles can never be exchanged.
            count (int | Unset):
            draw_pile (int | Unset):
            start_tiles (int | Unset):
            distinct_rotations (list[int] | Unset): The rotations that give different track (the others repeat one of them).
     """

    id: CableCarTileId
    segments: list[list[str]]
    tree: bool
    count: int | Unset = UNSET
    draw_pile: int | Unset = UNSET
    start_tiles: int | Unset = UNSET
    distinct_rotations: list[int] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id.value

        segments = []
        for segments_item_data in self.segments:
            segments_item = segments_item_data


            segments.append(segments_item)



        tree = self.tree

        count = self.count

        draw_pile = self.draw_pile

        start_tiles = self.start_tiles

        distinct_rotations: list[int] | Unset = UNSET
        if not isinstance(self.distinct_rotations, Unset):
            distinct_rotations = self.distinct_rotations




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "segments": segments,
            "tree": tree,
        })
        if count is not UNSET:
            field_dict["count"] = count
        if draw_pile is not UNSET:
            field_dict["draw_pile"] = draw_pile
        if start_tiles is not UNSET:
            field_dict["start_tiles"] = start_tiles
        if distinct_rotations is not UNSET:
            field_dict["distinct_rotations"] = distinct_rotations

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = CableCarTileId(d.pop("id"))




        segments = []
        _segments = d.pop("segments")
        for segments_item_data in (_segments):
            segments_item = cast(list[str], segments_item_data)

            segments.append(segments_item)


        tree = d.pop("tree")

        count = d.pop("count", UNSET)

        draw_pile = d.pop("draw_pile", UNSET)

        start_tiles = d.pop("start_tiles", UNSET)

        distinct_rotations = cast(list[int], d.pop("distinct_rotations", UNSET))


        cable_car_tile_type = cls(
            id=id,
            segments=segments,
            tree=tree,
            count=count,
            draw_pile=draw_pile,
            start_tiles=start_tiles,
            distinct_rotations=distinct_rotations,
        )


        cable_car_tile_type.additional_properties = d
        return cable_car_tile_type

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
