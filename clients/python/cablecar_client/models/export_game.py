from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ExportGame")



@_attrs_define
class ExportGame:
    """ 
        Attributes:
            id (str):
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            status (str): A game's status in an answer: `setup` (setup choices still to make), `playing`, `last_round` (ttr-
                sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            version (int):
            created_at (datetime.datetime):
            players (list[str]): Player names in seat order.
            start_seat (int): A seat number, 0-based, in turn order.
            rules_version (str):
            board_version (str):
            batch (None | str):
            bots (list[None | str] | Unset): Per seat, the server-side bot that played it, or `null` for a person (absent in
                older records).
     """

    id: str
    type_: GameTypeId
    status: str
    version: int
    created_at: datetime.datetime
    players: list[str]
    start_seat: int
    rules_version: str
    board_version: str
    batch: None | str
    bots: list[None | str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        status = self.status

        version = self.version

        created_at = self.created_at.isoformat()

        players = self.players



        start_seat = self.start_seat

        rules_version = self.rules_version

        board_version = self.board_version

        batch: None | str
        batch = self.batch

        bots: list[None | str] | Unset = UNSET
        if not isinstance(self.bots, Unset):
            bots = []
            for bots_item_data in self.bots:
                bots_item: None | str
                bots_item = bots_item_data
                bots.append(bots_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
            "status": status,
            "version": version,
            "created_at": created_at,
            "players": players,
            "start_seat": start_seat,
            "rules_version": rules_version,
            "board_version": board_version,
            "batch": batch,
        })
        if bots is not UNSET:
            field_dict["bots"] = bots

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = GameTypeId(d.pop("type"))




        status = d.pop("status")

        version = d.pop("version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        players = cast(list[str], d.pop("players"))


        start_seat = d.pop("start_seat")

        rules_version = d.pop("rules_version")

        board_version = d.pop("board_version")

        def _parse_batch(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        batch = _parse_batch(d.pop("batch"))


        _bots = d.pop("bots", UNSET)
        bots: list[None | str] | Unset = UNSET
        if _bots is not UNSET:
            bots = []
            for bots_item_data in _bots:
                def _parse_bots_item(data: object) -> None | str:
                    if data is None:
                        return data
                    return cast(None | str, data)

                bots_item = _parse_bots_item(bots_item_data)

                bots.append(bots_item)


        export_game = cls(
            id=id,
            type_=type_,
            status=status,
            version=version,
            created_at=created_at,
            players=players,
            start_seat=start_seat,
            rules_version=rules_version,
            board_version=board_version,
            batch=batch,
            bots=bots,
        )

        return export_game

