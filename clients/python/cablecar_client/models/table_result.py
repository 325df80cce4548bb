from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.player_result import PlayerResult





T = TypeVar("T", bound="TableResult")



@_attrs_define
class TableResult:
    """ 
        Attributes:
            table (int):
            ref (None | str): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`), or
                `null`: none.
            game_id (str):
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            winners (list[int]): The winning seats (empty until finished, for a cancelled game, for a stalled cable-car
                game, and when
                every seat went out together).
            reason (None | str): Why the game ended (the game type's `result.reason`, e.g. `forfeit`); null until finished
                and for a
                cancelled game.
            players (list[PlayerResult]):
            damaged_from (int | Unset): Only for a damaged table: the seq of its game's first bad event; the table is
                reported as the game
                stood before it (`DamagedFrom`: 1 when not even the game's first event is genuine, which only the
                database's owner can make: then nothing of it is shown, and it keeps its stored `status`).
     """

    table: int
    ref: None | str
    game_id: str
    status: str
    winners: list[int]
    reason: None | str
    players: list[PlayerResult]
    damaged_from: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.player_result import PlayerResult # noqa: PLC0415
        table = self.table

        ref: None | str
        ref = self.ref

        game_id = self.game_id

        status = self.status

        winners = self.winners



        reason: None | str
        reason = self.reason

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "table": table,
            "ref": ref,
            "game_id": game_id,
            "status": status,
            "winners": winners,
            "reason": reason,
            "players": players,
        })
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_result import PlayerResult # noqa: PLC0415
        d = dict(src_dict)
        table = d.pop("table")

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        game_id = d.pop("game_id")

        status = d.pop("status")

        winners = cast(list[int], d.pop("winners"))


        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = PlayerResult.from_dict(players_item_data)



            players.append(players_item)


        damaged_from = d.pop("damaged_from", UNSET)

        table_result = cls(
            table=table,
            ref=ref,
            game_id=game_id,
            status=status,
            winners=winners,
            reason=reason,
            players=players,
            damaged_from=damaged_from,
        )

        return table_result

