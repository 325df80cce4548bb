from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.seat_name import SeatName





T = TypeVar("T", bound="BatchGame")



@_attrs_define
class BatchGame:
    """ 
        Attributes:
            table (int):
            ref (None | str): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`), or
                `null`: none.
            id (str):
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            version (int):
            updated_at (datetime.datetime):
            players (list[SeatName]):
            damaged_from (int | Unset): Only for a damaged game (its stored record fails its chain or signature check from
                this event on): the
                seq of the first bad event. What is shown is the game up to the event before it (`version`); every
                action or write answers `409 game_damaged` until an operator moves the bad events aside (`cablecar
                quarantine`, recorded as an `events_quarantined` event), which is possible only for events no published
                checkpoint of the transparency log holds. Absent for a sound game.
     """

    table: int
    ref: None | str
    id: str
    status: str
    version: int
    updated_at: datetime.datetime
    players: list[SeatName]
    damaged_from: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_name import SeatName # noqa: PLC0415
        table = self.table

        ref: None | str
        ref = self.ref

        id = self.id

        status = self.status

        version = self.version

        updated_at = self.updated_at.isoformat()

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "table": table,
            "ref": ref,
            "id": id,
            "status": status,
            "version": version,
            "updated_at": updated_at,
            "players": players,
        })
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_name import SeatName # noqa: PLC0415
        d = dict(src_dict)
        table = d.pop("table")

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        id = d.pop("id")

        status = d.pop("status")

        version = d.pop("version")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = SeatName.from_dict(players_item_data)



            players.append(players_item)


        damaged_from = d.pop("damaged_from", UNSET)

        batch_game = cls(
            table=table,
            ref=ref,
            id=id,
            status=status,
            version=version,
            updated_at=updated_at,
            players=players,
            damaged_from=damaged_from,
        )

        return batch_game

