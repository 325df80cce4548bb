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
  from ..models.log_checkpoint import LogCheckpoint
  from ..models.webhook_game import WebhookGame
  from ..models.webhook_seat_out import WebhookSeatOut





T = TypeVar("T", bound="WebhookDelivery")



@_attrs_define
class WebhookDelivery:
    """ The body POSTed to a webhook URL (identical, byte for byte, on every attempt): `game` in every `game.*`
    delivery, `checkpoint` (and no `game`) in every `log.checkpoint` one.

        Attributes:
            id (str): The delivery id (also in `X-CableCar-Delivery`).
            type_ (WebhookEvent): `game.started`: a game was created (a scheduled one: it started, at its `game_started`);
                `game.finished`: its last move was made (also when it ended by
                forfeit); `game.seat_out`: a seat resigned or timed out (one delivery per seat; the game may go on);
                `game.cancelled`: its host cancelled it (no `game.finished` follows); `log.checkpoint`: the transparency
                log published a checkpoint (one delivery per checkpoint; webhooks without `batch` only).
            created_at (datetime.datetime):
            batch_ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see
                `Ref`), or `null`: none.
            game (WebhookGame | Unset):
            seat (WebhookSeatOut | Unset): In a `game.seat_out` delivery only: the seat that went out.
            checkpoint (LogCheckpoint | Unset): A signed checkpoint of the transparency log.
     """

    id: str
    type_: WebhookEvent
    created_at: datetime.datetime
    batch_ref: None | str | Unset = UNSET
    game: WebhookGame | Unset = UNSET
    seat: WebhookSeatOut | Unset = UNSET
    checkpoint: LogCheckpoint | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.log_checkpoint import LogCheckpoint # noqa: PLC0415
        from ..models.webhook_game import WebhookGame # noqa: PLC0415
        from ..models.webhook_seat_out import WebhookSeatOut # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        batch_ref: None | str | Unset
        if isinstance(self.batch_ref, Unset):
            batch_ref = UNSET
        else:
            batch_ref = self.batch_ref

        game: dict[str, Any] | Unset = UNSET
        if not isinstance(self.game, Unset):
            game = self.game.to_dict()

        seat: dict[str, Any] | Unset = UNSET
        if not isinstance(self.seat, Unset):
            seat = self.seat.to_dict()

        checkpoint: dict[str, Any] | Unset = UNSET
        if not isinstance(self.checkpoint, Unset):
            checkpoint = self.checkpoint.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
            "created_at": created_at,
        })
        if batch_ref is not UNSET:
            field_dict["batch_ref"] = batch_ref
        if game is not UNSET:
            field_dict["game"] = game
        if seat is not UNSET:
            field_dict["seat"] = seat
        if checkpoint is not UNSET:
            field_dict["checkpoint"] = checkpoint

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.log_checkpoint import LogCheckpoint # noqa: PLC0415
        from ..models.webhook_game import WebhookGame # noqa: PLC0415
        from ..models.webhook_seat_out import WebhookSeatOut # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = WebhookEvent(d.pop("type"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_batch_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        batch_ref = _parse_batch_ref(d.pop("batch_ref", UNSET))


        _game = d.pop("game", UNSET)
        game: WebhookGame | Unset
        if isinstance(_game,  Unset):
            game = UNSET
        else:
            game = WebhookGame.from_dict(_game)




        _seat = d.pop("seat", UNSET)
        seat: WebhookSeatOut | Unset
        if isinstance(_seat,  Unset):
            seat = UNSET
        else:
            seat = WebhookSeatOut.from_dict(_seat)




        _checkpoint = d.pop("checkpoint", UNSET)
        checkpoint: LogCheckpoint | Unset
        if isinstance(_checkpoint,  Unset):
            checkpoint = UNSET
        else:
            checkpoint = LogCheckpoint.from_dict(_checkpoint)




        webhook_delivery = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            batch_ref=batch_ref,
            game=game,
            seat=seat,
            checkpoint=checkpoint,
        )

        return webhook_delivery

