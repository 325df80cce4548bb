from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event import WebhookEvent
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateWebhook")



@_attrs_define
class CreateWebhook:
    """ 
        Attributes:
            url (str): An `http://` or `https://` URL the server can reach.
            batch (None | str | Unset): Only this batch's games (one of the organiser's batches); without it, all the
                organiser's games.
            events (list[WebhookEvent] | Unset): The events to deliver (default the four `game.*` ones; `log.checkpoint`
                only when named, and only
                without `batch`). A name sent twice counts once; the webhook lists its events in the order
                `game.started`, `game.finished`, `game.seat_out`, `game.cancelled`, `log.checkpoint`.
     """

    url: str
    batch: None | str | Unset = UNSET
    events: list[WebhookEvent] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        batch: None | str | Unset
        if isinstance(self.batch, Unset):
            batch = UNSET
        else:
            batch = self.batch

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
        })
        if batch is not UNSET:
            field_dict["batch"] = batch
        if events is not UNSET:
            field_dict["events"] = events

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_batch(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        batch = _parse_batch(d.pop("batch", UNSET))


        _events = d.pop("events", UNSET)
        events: list[WebhookEvent] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = WebhookEvent(events_item_data)



                events.append(events_item)


        create_webhook = cls(
            url=url,
            batch=batch,
            events=events,
        )

        return create_webhook

