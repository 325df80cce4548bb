from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="StreamView")



@_attrs_define
class StreamView:
    """ The data of the `view` message, the first of every connection (and reconnection) of the event stream:
    the game as it stands when the stream opens, before the events after the client's position. A client
    that reconnects at the head of the log, where no event may come for a while, learns from it whose turn it
    is (and a seat its own number) without reading the view.

        Attributes:
            game_id (str):
            version (int): The game's version now (the `seq` of its newest event).
            status (str): As in the game's view (`setup`, `playing`, `finished`, `cancelled`; open).
            active_seats (list[int]): The seats to act now, as the view says them (empty once the game is over).
            seat (int | None): The seat the stream was opened for (a seat token or ticket), `null` for a spectator.
     """

    game_id: str
    version: int
    status: str
    active_seats: list[int]
    seat: int | None





    def to_dict(self) -> dict[str, Any]:
        game_id = self.game_id

        version = self.version

        status = self.status

        active_seats = self.active_seats



        seat: int | None
        seat = self.seat


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "game_id": game_id,
            "version": version,
            "status": status,
            "active_seats": active_seats,
            "seat": seat,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        game_id = d.pop("game_id")

        version = d.pop("version")

        status = d.pop("status")

        active_seats = cast(list[int], d.pop("active_seats"))


        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))


        stream_view = cls(
            game_id=game_id,
            version=version,
            status=status,
            active_seats=active_seats,
            seat=seat,
        )

        return stream_view

