from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="BotsHealth")



@_attrs_define
class BotsHealth:
    """ The bot runners playing the server's bot seats: how many are alive now (each keeps a heartbeat in the store). With
    none (`ok` false) a new game with a bot seat is refused (`503 bots_unavailable`); the server is not down for it, so
    the health stays 200.

        Attributes:
            runners (int):
            ok (bool):
     """

    runners: int
    ok: bool





    def to_dict(self) -> dict[str, Any]:
        runners = self.runners

        ok = self.ok


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "runners": runners,
            "ok": ok,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        runners = d.pop("runners")

        ok = d.pop("ok")

        bots_health = cls(
            runners=runners,
            ok=ok,
        )

        return bots_health

