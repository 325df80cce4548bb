from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="WebhookSeatOut")



@_attrs_define
class WebhookSeatOut:
    """ In a `game.seat_out` delivery only: the seat that went out.

        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            standing (str): Whether a seat is still in (`in`; it stays `in` once the game ended if it played to the end),
                `resigned`,
                or `timed_out` (its deadline passed). A seat that resigned or timed out is out: its turns are skipped, it
                never wins and it ranks below every seat still in (see *Time controls, resignations and forfeits*). Open:
                treat a value you do not know as out.
            seq (int): The `seq` of its `seat_resigned` or `seat_timed_out` event.
     """

    seat: int
    standing: str
    seq: int





    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        standing = self.standing

        seq = self.seq


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "seat": seat,
            "standing": standing,
            "seq": seq,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        standing = d.pop("standing")

        seq = d.pop("seq")

        webhook_seat_out = cls(
            seat=seat,
            standing=standing,
            seq=seq,
        )

        return webhook_seat_out

