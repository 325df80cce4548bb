from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.event import Event





T = TypeVar("T", bound="ActionResult")



@_attrs_define
class ActionResult:
    """ 
        Attributes:
            version (int): The game's version after the action.
            events (list[Event]): The events the action wrote, as the acting seat may see them.
            replayed (bool): True when this is the stored answer of an earlier request with the same `Idempotency-Key`.
     """

    version: int
    events: list[Event]
    replayed: bool





    def to_dict(self) -> dict[str, Any]:
        from ..models.event import Event # noqa: PLC0415
        version = self.version

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)



        replayed = self.replayed


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "version": version,
            "events": events,
            "replayed": replayed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event import Event # noqa: PLC0415
        d = dict(src_dict)
        version = d.pop("version")

        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            events_item = Event.from_dict(events_item_data)



            events.append(events_item)


        replayed = d.pop("replayed")

        action_result = cls(
            version=version,
            events=events,
            replayed=replayed,
        )

        return action_result

