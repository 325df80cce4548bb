from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ttr_player_result import TtrPlayerResult





T = TypeVar("T", bound="TtrSfResult")



@_attrs_define
class TtrSfResult:
    """ 
        Attributes:
            winners (list[int]): The winning seats (several on a tie); only seats still in can win. Empty when every seat
                went out
                together (reason `forfeit`).
            players (list[TtrPlayerResult]):
            reason (str | Unset): Why the game ended (open): `final_round` (the last round was played), `stalemate` (every
                seat still in
                passed in a row), `forfeit` (one seat was left in and wins, or none was).
     """

    winners: list[int]
    players: list[TtrPlayerResult]
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.ttr_player_result import TtrPlayerResult # noqa: PLC0415
        winners = self.winners



        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "winners": winners,
            "players": players,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ttr_player_result import TtrPlayerResult # noqa: PLC0415
        d = dict(src_dict)
        winners = cast(list[int], d.pop("winners"))


        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = TtrPlayerResult.from_dict(players_item_data)



            players.append(players_item)


        reason = d.pop("reason", UNSET)

        ttr_sf_result = cls(
            winners=winners,
            players=players,
            reason=reason,
        )


        ttr_sf_result.additional_properties = d
        return ttr_sf_result

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
