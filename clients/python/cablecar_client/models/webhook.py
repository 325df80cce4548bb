from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event import WebhookEvent
from typing import cast
import datetime






T = TypeVar("T", bound="Webhook")



@_attrs_define
class Webhook:
    """ 
        Attributes:
            id (str):
            url (str):
            batch (None | str):
            events (list[WebhookEvent]):
            created_at (datetime.datetime):
     """

    id: str
    url: str
    batch: None | str
    events: list[WebhookEvent]
    created_at: datetime.datetime





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        batch: None | str
        batch = self.batch

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)



        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "url": url,
            "batch": batch,
            "events": events,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        def _parse_batch(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        batch = _parse_batch(d.pop("batch"))


        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            events_item = WebhookEvent(events_item_data)



            events.append(events_item)


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        webhook = cls(
            id=id,
            url=url,
            batch=batch,
            events=events,
            created_at=created_at,
        )

        return webhook

