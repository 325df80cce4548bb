from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SseMessage")



@_attrs_define
class SseMessage:
    """ One message of the event stream (the `retry:` line and `: keep-alive` comments carry no data and are not
    messages). `event` is `view` for the first message of every connection (the game as it stands: a
    `StreamView`), `message` (the default) for a log event and `end` for the final message of a game that is
    over (finished or cancelled). The whole stream is an `EventStream`.

        Attributes:
            data (str): JSON: an `Event`, for `event: view` a `StreamView`, for `event: end` a `StreamEnd`.
            event (str | Unset): `view` (first), `message` (a log event) or `end`; open: skip a message whose `event` you do
                not know.
            id (str | Unset): The `seq` of the last event sent; send it back as `Last-Event-ID` to resume.
            retry (int | Unset):
     """

    data: str
    event: str | Unset = UNSET
    id: str | Unset = UNSET
    retry: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        data = self.data

        event = self.event

        id = self.id

        retry = self.retry


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "data": data,
        })
        if event is not UNSET:
            field_dict["event"] = event
        if id is not UNSET:
            field_dict["id"] = id
        if retry is not UNSET:
            field_dict["retry"] = retry

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data = d.pop("data")

        event = d.pop("event", UNSET)

        id = d.pop("id", UNSET)

        retry = d.pop("retry", UNSET)

        sse_message = cls(
            data=data,
            event=event,
            id=id,
            retry=retry,
        )

        return sse_message

