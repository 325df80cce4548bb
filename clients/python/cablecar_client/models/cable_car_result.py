from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.cable_car_player_result import CableCarPlayerResult





T = TypeVar("T", bound="CableCarResult")



@_attrs_define
class CableCarResult:
    """ 
        Attributes:
            winners (list[int]): The seat whose tram arrived first, or the one seat left in; empty when the game stalled or
                every seat
                went out together.
            reason (str): Why the game ended (open): `destination_reached` (a tram arrived), `stalled` (every seat still in
                passed
                in a row: nobody wins), `forfeit` (one seat was left in and wins, or none was). **Ruling (stalled):** a
                seat that can neither lay a tile nor start its ride passes automatically; when every seat still in has
                passed in a row (a whole round with no tile laid and no tram moved), nothing can ever change and the
                game ends with no winner.
            players (list[CableCarPlayerResult]): Every seat in seat order, with its standing.
     """

    winners: list[int]
    reason: str
    players: list[CableCarPlayerResult]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cable_car_player_result import CableCarPlayerResult # noqa: PLC0415
        winners = self.winners



        reason = self.reason

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "winners": winners,
            "reason": reason,
            "players": players,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cable_car_player_result import CableCarPlayerResult # noqa: PLC0415
        d = dict(src_dict)
        winners = cast(list[int], d.pop("winners"))


        reason = d.pop("reason")

        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = CableCarPlayerResult.from_dict(players_item_data)



            players.append(players_item)


        cable_car_result = cls(
            winners=winners,
            reason=reason,
            players=players,
        )


        cable_car_result.additional_properties = d
        return cable_car_result

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
