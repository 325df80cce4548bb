from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="WebhookGamePlayersItem")



@_attrs_define
class WebhookGamePlayersItem:
    """ 
        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            name (str):
            ref (None | str): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`), or
                `null`: none.
     """

    seat: int
    name: str
    ref: None | str





    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        name = self.name

        ref: None | str
        ref = self.ref


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "seat": seat,
            "name": name,
            "ref": ref,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        name = d.pop("name")

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        webhook_game_players_item = cls(
            seat=seat,
            name=name,
            ref=ref,
        )

        return webhook_game_players_item

