from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.draw_card_source import DrawCardSource
from ..models.draw_card_type import DrawCardType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="DrawCard")



@_attrs_define
class DrawCard:
    """ `ttr-sf`: take one transport card, the top of the deck (`deck`) or the face-up card in `slot` (`face_up`).

        Attributes:
            type_ (DrawCardType): The action name `draw_card` (a one-value `enum` in a schema of its own, so that generators
                which ignore `const` still tell the action bodies apart by `type`).
            source (DrawCardSource):
            slot (int | None | Unset): The face-up slot 0–4; required with `face_up`, absent with `deck`.
            expected_version (int | None | Unset): Refuse the action with `409 stale_version` unless the game is at exactly
                this version.
     """

    type_: DrawCardType
    source: DrawCardSource
    slot: int | None | Unset = UNSET
    expected_version: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        source = self.source.value

        slot: int | None | Unset
        if isinstance(self.slot, Unset):
            slot = UNSET
        else:
            slot = self.slot

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
        if slot is not UNSET:
            field_dict["slot"] = slot
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = DrawCardType(d.pop("type"))




        source = DrawCardSource(d.pop("source"))




        def _parse_slot(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        slot = _parse_slot(d.pop("slot", UNSET))


        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))


        draw_card = cls(
            type_=type_,
            source=source,
            slot=slot,
            expected_version=expected_version,
        )

        return draw_card

