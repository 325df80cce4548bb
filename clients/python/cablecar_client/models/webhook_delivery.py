from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event import WebhookEvent
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.webhook_game import WebhookGame
  from ..models.webhook_seat_out import WebhookSeatOut





T = TypeVar("T", bound="WebhookDelivery")



@_attrs_define
class WebhookDelivery:
    """ The body POSTed to a webhook URL (identical, byte for byte, on every attempt).

        Attributes:
            id (str): The delivery id (also in `X-CableCar-Delivery`).
            type_ (WebhookEvent): `game.started`: a game was created; `game.finished`: its last move was made (also when it
                ended by
                forfeit); `game.seat_out`: a seat resigned or timed out (one delivery per seat; the game may go on);
                `game.cancelled`: its host cancelled it (no `game.finished` follows).
            created_at (datetime.datetime):
            game (WebhookGame):
            seat (WebhookSeatOut | Unset): In a `game.seat_out` delivery only: the seat that went out.
     """

    id: str
    type_: WebhookEvent
    created_at: datetime.datetime
    game: WebhookGame
    seat: WebhookSeatOut | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_game import WebhookGame # noqa: PLC0415
        from ..models.webhook_seat_out import WebhookSeatOut # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        game = self.game.to_dict()

        seat: dict[str, Any] | Unset = UNSET
        if not isinstance(self.seat, Unset):
            seat = self.seat.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
            "created_at": created_at,
            "game": game,
        })
        if seat is not UNSET:
            field_dict["seat"] = seat

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_game import WebhookGame # noqa: PLC0415
        from ..models.webhook_seat_out import WebhookSeatOut # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = WebhookEvent(d.pop("type"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        game = WebhookGame.from_dict(d.pop("game"))




        _seat = d.pop("seat", UNSET)
        seat: WebhookSeatOut | Unset
        if isinstance(_seat,  Unset):
            seat = UNSET
        else:
            seat = WebhookSeatOut.from_dict(_seat)




        webhook_delivery = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            game=game,
            seat=seat,
        )

        return webhook_delivery

