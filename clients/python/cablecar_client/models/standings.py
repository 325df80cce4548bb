from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.damaged_table import DamagedTable
  from ..models.player_standing import PlayerStanding





T = TypeVar("T", bound="Standings")



@_attrs_define
class Standings:
    """ 
        Attributes:
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            batches (list[str]): The rounds summed, as named.
            finished (bool): True once every table of every round named is over.
            tie_breaks (list[str]): What the ranking compares, in order: `wins`, then (ttr-sf) `points`,
                `completed_tickets`.
            unreferenced_seats (int): Seats of the rounds with no player ref (not in the standings).
            standings (list[PlayerStanding]): Best first.
            damaged_tables (list[DamagedTable] | Unset): The damaged tables of the rounds (empty when there are none), in
                the order of the rounds.
     """

    type_: GameTypeId
    batches: list[str]
    finished: bool
    tie_breaks: list[str]
    unreferenced_seats: int
    standings: list[PlayerStanding]
    damaged_tables: list[DamagedTable] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.damaged_table import DamagedTable # noqa: PLC0415
        from ..models.player_standing import PlayerStanding # noqa: PLC0415
        type_ = self.type_.value

        batches = self.batches



        finished = self.finished

        tie_breaks = self.tie_breaks



        unreferenced_seats = self.unreferenced_seats

        standings = []
        for standings_item_data in self.standings:
            standings_item = standings_item_data.to_dict()
            standings.append(standings_item)



        damaged_tables: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.damaged_tables, Unset):
            damaged_tables = []
            for damaged_tables_item_data in self.damaged_tables:
                damaged_tables_item = damaged_tables_item_data.to_dict()
                damaged_tables.append(damaged_tables_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "batches": batches,
            "finished": finished,
            "tie_breaks": tie_breaks,
            "unreferenced_seats": unreferenced_seats,
            "standings": standings,
        })
        if damaged_tables is not UNSET:
            field_dict["damaged_tables"] = damaged_tables

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.damaged_table import DamagedTable # noqa: PLC0415
        from ..models.player_standing import PlayerStanding # noqa: PLC0415
        d = dict(src_dict)
        type_ = GameTypeId(d.pop("type"))




        batches = cast(list[str], d.pop("batches"))


        finished = d.pop("finished")

        tie_breaks = cast(list[str], d.pop("tie_breaks"))


        unreferenced_seats = d.pop("unreferenced_seats")

        standings = []
        _standings = d.pop("standings")
        for standings_item_data in (_standings):
            standings_item = PlayerStanding.from_dict(standings_item_data)



            standings.append(standings_item)


        _damaged_tables = d.pop("damaged_tables", UNSET)
        damaged_tables: list[DamagedTable] | Unset = UNSET
        if _damaged_tables is not UNSET:
            damaged_tables = []
            for damaged_tables_item_data in _damaged_tables:
                damaged_tables_item = DamagedTable.from_dict(damaged_tables_item_data)



                damaged_tables.append(damaged_tables_item)


        standings = cls(
            type_=type_,
            batches=batches,
            finished=finished,
            tie_breaks=tie_breaks,
            unreferenced_seats=unreferenced_seats,
            standings=standings,
            damaged_tables=damaged_tables,
        )

        return standings

