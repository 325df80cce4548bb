from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SeatToken")



@_attrs_define
class SeatToken:
    """ 
        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            name (str):
            token (None | str): This seat's secret token (`Authorization: Bearer <token>`). Shown only here. `null` for a
                bot seat: the
                server plays it and nobody can act for it.
            bot (None | str | Unset): The server-side bot playing this seat (one of the type's `bots`), or `null` for a
                person.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
     """

    seat: int
    name: str
    token: None | str
    bot: None | str | Unset = UNSET
    ref: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        name = self.name

        token: None | str
        token = self.token

        bot: None | str | Unset
        if isinstance(self.bot, Unset):
            bot = UNSET
        else:
            bot = self.bot

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "seat": seat,
            "name": name,
            "token": token,
        })
        if bot is not UNSET:
            field_dict["bot"] = bot
        if ref is not UNSET:
            field_dict["ref"] = ref

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        name = d.pop("name")

        def _parse_token(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        token = _parse_token(d.pop("token"))


        def _parse_bot(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bot = _parse_bot(d.pop("bot", UNSET))


        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        seat_token = cls(
            seat=seat,
            name=name,
            token=token,
            bot=bot,
            ref=ref,
        )

        return seat_token

