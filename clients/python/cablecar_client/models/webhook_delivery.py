from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event import WebhookEvent
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.webhook_game import WebhookGame





T = TypeVar("T", bound="WebhookDelivery")



@_attrs_define
class WebhookDelivery:
    """ The body POSTed to a webhook URL (identical, byte for byte, on every attempt).

        Attributes:
            id (str): The delivery id (also in `X-CableCar-Delivery`).
            type_ (WebhookEvent): `game.started`: a game was created; `game.finished`: its last move was made.
            created_at (datetime.datetime):
            game (WebhookGame):
     """

    id: str
    type_: WebhookEvent
    created_at: datetime.datetime
    game: WebhookGame





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_game import WebhookGame # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        game = self.game.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
            "created_at": created_at,
            "game": game,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_game import WebhookGame # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = WebhookEvent(d.pop("type"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        game = WebhookGame.from_dict(d.pop("game"))




        webhook_delivery = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            game=game,
        )

        return webhook_delivery

