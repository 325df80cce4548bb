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
  from ..models.cable_car_result import CableCarResult
  from ..models.ttr_sf_result import TtrSfResult
  from ..models.webhook_game_players_item import WebhookGamePlayersItem





T = TypeVar("T", bound="WebhookGame")



@_attrs_define
class WebhookGame:
    """ 
        Attributes:
            id (str):
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            batch (None | str):
            ref (None | str): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`), or
                `null`: none.
            players (list[WebhookGamePlayersItem]): Every seat, in order, with the organiser's ref of its player (`null`:
                none).
            result (CableCarResult | None | TtrSfResult | Unset): A finished game's result as its type defines it
                (`TtrSfResult` or `CableCarResult`, told apart by the
                game's `type` next to it), or `null` before the end.
     """

    id: str
    type_: GameTypeId
    status: str
    batch: None | str
    ref: None | str
    players: list[WebhookGamePlayersItem]
    result: CableCarResult | None | TtrSfResult | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.cable_car_result import CableCarResult # noqa: PLC0415
        from ..models.ttr_sf_result import TtrSfResult # noqa: PLC0415
        from ..models.webhook_game_players_item import WebhookGamePlayersItem # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        status = self.status

        batch: None | str
        batch = self.batch

        ref: None | str
        ref = self.ref

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, TtrSfResult):
            result = self.result.to_dict()
        elif isinstance(self.result, CableCarResult):
            result = self.result.to_dict()
        else:
            result = self.result


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
            "status": status,
            "batch": batch,
            "ref": ref,
            "players": players,
        })
        if result is not UNSET:
            field_dict["result"] = result

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cable_car_result import CableCarResult # noqa: PLC0415
        from ..models.ttr_sf_result import TtrSfResult # noqa: PLC0415
        from ..models.webhook_game_players_item import WebhookGamePlayersItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = GameTypeId(d.pop("type"))




        status = d.pop("status")

        def _parse_batch(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        batch = _parse_batch(d.pop("batch"))


        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = WebhookGamePlayersItem.from_dict(players_item_data)



            players.append(players_item)


        def _parse_result(data: object) -> CableCarResult | None | TtrSfResult | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_result_type_0 = TtrSfResult.from_dict(data)



                return componentsschemas_game_result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_result_type_1 = CableCarResult.from_dict(data)



                return componentsschemas_game_result_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CableCarResult | None | TtrSfResult | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        webhook_game = cls(
            id=id,
            type_=type_,
            status=status,
            batch=batch,
            ref=ref,
            players=players,
            result=result,
        )

        return webhook_game

