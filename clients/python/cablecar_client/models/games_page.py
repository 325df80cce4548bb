from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.game_summary import GameSummary





T = TypeVar("T", bound="GamesPage")



@_attrs_define
class GamesPage:
    """ 
        Attributes:
            games (list[GameSummary]):
            next_cursor (None | str): Pass as `cursor` for the next page; `null` on the last page.
     """

    games: list[GameSummary]
    next_cursor: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.game_summary import GameSummary # noqa: PLC0415
        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)



        next_cursor: None | str
        next_cursor = self.next_cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "games": games,
            "next_cursor": next_cursor,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_summary import GameSummary # noqa: PLC0415
        d = dict(src_dict)
        games = []
        _games = d.pop("games")
        for games_item_data in (_games):
            games_item = GameSummary.from_dict(games_item_data)



            games.append(games_item)


        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))


        games_page = cls(
            games=games,
            next_cursor=next_cursor,
        )

        return games_page

