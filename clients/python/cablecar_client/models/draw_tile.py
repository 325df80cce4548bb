from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.draw_tile_source import DrawTileSource
from ..models.draw_tile_type import DrawTileType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="DrawTile")



@_attrs_define
class DrawTile:
    """ `cable-car`: draw one tile back up after `lay_tiles`, when a riding player's open hand offers a choice:
    `tile` from riding seat `rider`'s hand (`rider`), or (games created under `cable-car/2` and `/3` only) the top
    of the pile (`pile`). `legal-actions` lists every distinct choice; the seat sends one per tile until it holds 5
    (or nothing is left), and that ends its turn.

    **Drawing from riders' hands (`cable-car/4`, the rulebook):** a riding player's hand is open, but the others
    draw from the pile as long as it holds tiles. Once the pile is empty, a player drawing back up chooses, tile
    by tile, a tile of a riding player's hand (which rider, which tile). **Ruling:** a draw needing more tiles
    than the pile still holds takes the rest of the pile first (a `tiles_drawn` event), then chooses from riders'
    hands. The draw stays automatic where there is no choice: the riders hold no more tiles than are needed, or
    only one distinct tile can be taken (then every such tile, riders clockwise from the drawer, longest-held
    first). Games created under `cable-car/2` and `/3` keep their rule: the choice, between the pile and any
    rider's tile, came as soon as a rider held a tile; under `cable-car/1` every draw was automatic.

        Attributes:
            type_ (DrawTileType): The action name `draw_tile` (a one-value `enum` in a schema of its own, so that generators
                which ignore `const` still tell the action bodies apart by `type`).
            source (DrawTileSource):
            rider (int | None | Unset): The riding seat to take the tile from; required with `rider`, absent with `pile`.
            tile (None | str | Unset): The tile type to take from that rider's hand (a `CableCarTileId`); required with
                `rider`.
            expected_version (int | None | Unset): Refuse the action with `409 stale_version` unless the game is at exactly
                this version.
     """

    type_: DrawTileType
    source: DrawTileSource
    rider: int | None | Unset = UNSET
    tile: None | str | Unset = UNSET
    expected_version: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        source = self.source.value

        rider: int | None | Unset
        if isinstance(self.rider, Unset):
            rider = UNSET
        else:
            rider = self.rider

        tile: None | str | Unset
        if isinstance(self.tile, Unset):
            tile = UNSET
        else:
            tile = self.tile

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "source": source,
        })
        if rider is not UNSET:
            field_dict["rider"] = rider
        if tile is not UNSET:
            field_dict["tile"] = tile
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = DrawTileType(d.pop("type"))




        source = DrawTileSource(d.pop("source"))




        def _parse_rider(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rider = _parse_rider(d.pop("rider", UNSET))


        def _parse_tile(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tile = _parse_tile(d.pop("tile", UNSET))


        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))


        draw_tile = cls(
            type_=type_,
            source=source,
            rider=rider,
            tile=tile,
            expected_version=expected_version,
        )

        return draw_tile

