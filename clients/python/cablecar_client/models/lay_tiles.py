from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.lay_tiles_type import LayTilesType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.placement import Placement





T = TypeVar("T", bound="LayTiles")



@_attrs_define
class LayTiles:
    """ `cable-car`: lay two tiles from the hand (one only when no second legal placement exists), in order. Then the
    seat draws back up to 5: automatically from the pile; once the pile is empty a riding player's open hand may
    offer a choice, and then the turn waits for one `draw_tile` per tile (see `DrawTile`). Under `cable-car/4` a
    seat whose network is complete at the start of its turn may not lay (`422 illegal_action`, `reason`
    `ride_due`): its ride is due (see `StartRide`); games created under `cable-car/1` to `/3` let it lay on.

    **Ruling (rule 5, further travel):** besides leading track off the board, into a stop or against a bare tile
    edge, a placement must not lead track into an empty square that no tile of the set, in any rotation, could
    ever fill given its permanent surroundings: the board edge and stop squares (no track), terminal fronts and
    track already leading in (track needed), and the bare edges of tree tiles (never exchanged). Such a square is
    one open on a single side only. A tree tile whose bare edge would close such a square that track already
    leads into is refused too. Both are refused with `dead_end` (games created under `cable-car/1` keep that
    rule's placement check). The bare edge of an ordinary tile does not count: an exchange can add track there.

        Attributes:
            type_ (LayTilesType): The action name `lay_tiles` (a one-value `enum` in a schema of its own, so that generators
                which ignore `const` still tell the action bodies apart by `type`).
            placements (list[Placement]):
            expected_version (int | None | Unset): Refuse the action with `409 stale_version` unless the game is at exactly
                this version.
     """

    type_: LayTilesType
    placements: list[Placement]
    expected_version: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.placement import Placement # noqa: PLC0415
        type_ = self.type_.value

        placements = []
        for placements_item_data in self.placements:
            placements_item = placements_item_data.to_dict()
            placements.append(placements_item)



        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "placements": placements,
        })
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.placement import Placement # noqa: PLC0415
        d = dict(src_dict)
        type_ = LayTilesType(d.pop("type"))




        placements = []
        _placements = d.pop("placements")
        for placements_item_data in (_placements):
            placements_item = Placement.from_dict(placements_item_data)



            placements.append(placements_item)


        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))


        lay_tiles = cls(
            type_=type_,
            placements=placements,
            expected_version=expected_version,
        )

        return lay_tiles

