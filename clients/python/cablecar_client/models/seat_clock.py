from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SeatClock")



@_attrs_define
class SeatClock:
    """ One seat's clock at the view's version.

        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            remaining_seconds (float): Seconds the seat had left at the view's version (the time of its last event), to the
                millisecond. For
                `per_turn`: a running seat's time left in its turn (or setup), a waiting seat a whole turn; for `clock`:
                the bank less the time a running seat had used of it by then (or what was left of its separate setup
                allowance).
            running (bool): Whether the seat's time is running (it is active and the game is not over).
     """

    seat: int
    remaining_seconds: float
    running: bool





    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        remaining_seconds = self.remaining_seconds

        running = self.running


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "seat": seat,
            "remaining_seconds": remaining_seconds,
            "running": running,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        remaining_seconds = d.pop("remaining_seconds")

        running = d.pop("running")

        seat_clock = cls(
            seat=seat,
            remaining_seconds=remaining_seconds,
            running=running,
        )

        return seat_clock

