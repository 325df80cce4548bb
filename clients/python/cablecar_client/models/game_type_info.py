from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from typing import cast

if TYPE_CHECKING:
  from ..models.action_body import ActionBody





T = TypeVar("T", bound="GameTypeInfo")



@_attrs_define
class GameTypeInfo:
    """ 
        Attributes:
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            title (str):
            min_players (int):
            max_players (int):
            rules_version (str): Version of the rules engine; stored with every game.
            board_version (str): Version of the board data; stored with every game.
            actions (list[str]): The action `type`s of this game type, sorted.
            bots (list[str]): The server-side bots that may play a seat of this game type (`{"name": "Robo", "bot":
                "planner"}` in
                `players`), weakest first: `random`, `greedy`, `planner` and, for `ttr-sf`, `mcts`.
            action_bodies (list[ActionBody]): How to write each action of this game type (sorted by `type`), derived from
                the game's rules: the
                fields of the body besides `type` (and the optional `expected_version` every body may carry).
     """

    type_: GameTypeId
    title: str
    min_players: int
    max_players: int
    rules_version: str
    board_version: str
    actions: list[str]
    bots: list[str]
    action_bodies: list[ActionBody]





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_body import ActionBody # noqa: PLC0415
        type_ = self.type_.value

        title = self.title

        min_players = self.min_players

        max_players = self.max_players

        rules_version = self.rules_version

        board_version = self.board_version

        actions = self.actions



        bots = self.bots



        action_bodies = []
        for action_bodies_item_data in self.action_bodies:
            action_bodies_item = action_bodies_item_data.to_dict()
            action_bodies.append(action_bodies_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "title": title,
            "min_players": min_players,
            "max_players": max_players,
            "rules_version": rules_version,
            "board_version": board_version,
            "actions": actions,
            "bots": bots,
            "action_bodies": action_bodies,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_body import ActionBody # noqa: PLC0415
        d = dict(src_dict)
        type_ = GameTypeId(d.pop("type"))




        title = d.pop("title")

        min_players = d.pop("min_players")

        max_players = d.pop("max_players")

        rules_version = d.pop("rules_version")

        board_version = d.pop("board_version")

        actions = cast(list[str], d.pop("actions"))


        bots = cast(list[str], d.pop("bots"))


        action_bodies = []
        _action_bodies = d.pop("action_bodies")
        for action_bodies_item_data in (_action_bodies):
            action_bodies_item = ActionBody.from_dict(action_bodies_item_data)



            action_bodies.append(action_bodies_item)


        game_type_info = cls(
            type_=type_,
            title=title,
            min_players=min_players,
            max_players=max_players,
            rules_version=rules_version,
            board_version=board_version,
            actions=actions,
            bots=bots,
            action_bodies=action_bodies,
        )

        return game_type_info

