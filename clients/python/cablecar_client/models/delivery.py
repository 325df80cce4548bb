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
  from ..models.delivery_attempt import DeliveryAttempt
  from ..models.webhook_delivery import WebhookDelivery





T = TypeVar("T", bound="Delivery")



@_attrs_define
class Delivery:
    """ 
        Attributes:
            id (str):
            event (WebhookEvent): `game.started`: a game was created (a scheduled one: it started, at its `game_started`);
                `game.finished`: its last move was made (also when it ended by
                forfeit); `game.seat_out`: a seat resigned or timed out (one delivery per seat; the game may go on);
                `game.cancelled`: its host cancelled it (no `game.finished` follows); `log.checkpoint`: the transparency
                log published a checkpoint (one delivery per checkpoint; webhooks without `batch` only).
            game_id (None | str): The game the delivery is about; `null` for a `log.checkpoint` delivery.
            state (str): `pending` (waiting for its first attempt or a retry), `delivered` (a 2xx answer) or `failed` (given
                up); open.
            attempts (int):
            created_at (datetime.datetime):
            next_attempt_at (datetime.datetime | None): When the next attempt is due (`pending` only).
            delivered_at (datetime.datetime | None):
            last_status_code (int | None): The receiver's status at the last attempt (null when it did not answer).
            last_error (None | str):
            history (list[DeliveryAttempt]): Every attempt, oldest first.
            payload (WebhookDelivery): The body POSTed to a webhook URL (identical, byte for byte, on every attempt): `game`
                in every `game.*`
                delivery, `checkpoint` (and no `game`) in every `log.checkpoint` one.
     """

    id: str
    event: WebhookEvent
    game_id: None | str
    state: str
    attempts: int
    created_at: datetime.datetime
    next_attempt_at: datetime.datetime | None
    delivered_at: datetime.datetime | None
    last_status_code: int | None
    last_error: None | str
    history: list[DeliveryAttempt]
    payload: WebhookDelivery





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_attempt import DeliveryAttempt # noqa: PLC0415
        from ..models.webhook_delivery import WebhookDelivery # noqa: PLC0415
        id = self.id

        event = self.event.value

        game_id: None | str
        game_id = self.game_id

        state = self.state

        attempts = self.attempts

        created_at = self.created_at.isoformat()

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        last_status_code: int | None
        last_status_code = self.last_status_code

        last_error: None | str
        last_error = self.last_error

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)



        payload = self.payload.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "event": event,
            "game_id": game_id,
            "state": state,
            "attempts": attempts,
            "created_at": created_at,
            "next_attempt_at": next_attempt_at,
            "delivered_at": delivered_at,
            "last_status_code": last_status_code,
            "last_error": last_error,
            "history": history,
            "payload": payload,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_attempt import DeliveryAttempt # noqa: PLC0415
        from ..models.webhook_delivery import WebhookDelivery # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        event = WebhookEvent(d.pop("event"))




        def _parse_game_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        game_id = _parse_game_id(d.pop("game_id"))


        state = d.pop("state")

        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)



                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))


        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)



                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))


        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("last_status_code"))


        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))


        history = []
        _history = d.pop("history")
        for history_item_data in (_history):
            history_item = DeliveryAttempt.from_dict(history_item_data)



            history.append(history_item)


        payload = WebhookDelivery.from_dict(d.pop("payload"))




        delivery = cls(
            id=id,
            event=event,
            game_id=game_id,
            state=state,
            attempts=attempts,
            created_at=created_at,
            next_attempt_at=next_attempt_at,
            delivered_at=delivered_at,
            last_status_code=last_status_code,
            last_error=last_error,
            history=history,
            payload=payload,
        )

        return delivery

