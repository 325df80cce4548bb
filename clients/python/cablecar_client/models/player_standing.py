from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PlayerStanding")



@_attrs_define
class PlayerStanding:
    """ 
        Attributes:
            rank (int): 1 for the best; players equal on every tie-break share a rank.
            player_ref (str):
            name (str): The player's name in the latest round named.
            games (int):
            finished (int):
            wins (int):
            points (int | None): Summed final totals (ttr-sf); null for cable-car (and before any finished game).
            completed_tickets (int | None): Summed completed tickets (ttr-sf); null otherwise.
            damaged_games (int): Of `games`, those at a damaged table (listed in `damaged_tables`).
     """

    rank: int
    player_ref: str
    name: str
    games: int
    finished: int
    wins: int
    points: int | None
    completed_tickets: int | None
    damaged_games: int





    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        player_ref = self.player_ref

        name = self.name

        games = self.games

        finished = self.finished

        wins = self.wins

        points: int | None
        points = self.points

        completed_tickets: int | None
        completed_tickets = self.completed_tickets

        damaged_games = self.damaged_games


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rank": rank,
            "player_ref": player_ref,
            "name": name,
            "games": games,
            "finished": finished,
            "wins": wins,
            "points": points,
            "completed_tickets": completed_tickets,
            "damaged_games": damaged_games,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        player_ref = d.pop("player_ref")

        name = d.pop("name")

        games = d.pop("games")

        finished = d.pop("finished")

        wins = d.pop("wins")

        def _parse_points(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        points = _parse_points(d.pop("points"))


        def _parse_completed_tickets(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        completed_tickets = _parse_completed_tickets(d.pop("completed_tickets"))


        damaged_games = d.pop("damaged_games")

        player_standing = cls(
            rank=rank,
            player_ref=player_ref,
            name=name,
            games=games,
            finished=finished,
            wins=wins,
            points=points,
            completed_tickets=completed_tickets,
            damaged_games=damaged_games,
        )

        return player_standing

