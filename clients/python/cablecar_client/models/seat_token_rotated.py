from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SeatTokenRotated")



@_attrs_define
class SeatTokenRotated:
    """ 
        Attributes:
            game_id (str):
            seat (int): A seat number, 0-based, in turn order.
            name (str):
            token (str): The seat's new token; the old one no longer works. Shown only here.
     """

    game_id: str
    seat: int
    name: str
    token: str





    def to_dict(self) -> dict[str, Any]:
        game_id = self.game_id

        seat = self.seat

        name = self.name

        token = self.token


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "game_id": game_id,
            "seat": seat,
            "name": name,
            "token": token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        game_id = d.pop("game_id")

        seat = d.pop("seat")

        name = d.pop("name")

        token = d.pop("token")

        seat_token_rotated = cls(
            game_id=game_id,
            seat=seat,
            name=name,
            token=token,
        )

        return seat_token_rotated

