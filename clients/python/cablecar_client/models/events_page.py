from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.event import Event





T = TypeVar("T", bound="EventsPage")



@_attrs_define
class EventsPage:
    """ 
        Attributes:
            game_id (str):
            version (int): The game's version now.
            events (list[Event]):
            next_cursor (None | str): Pass as `cursor` for the next page; `null` when this page reaches the game's version.
            next_after (int | None): Deprecated (use `next_cursor`); pass as `after` for the next page, `null` on the last
                one.
     """

    game_id: str
    version: int
    events: list[Event]
    next_cursor: None | str
    next_after: int | None





    def to_dict(self) -> dict[str, Any]:
        from ..models.event import Event # noqa: PLC0415
        game_id = self.game_id

        version = self.version

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)



        next_cursor: None | str
        next_cursor = self.next_cursor

        next_after: int | None
        next_after = self.next_after


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "game_id": game_id,
            "version": version,
            "events": events,
            "next_cursor": next_cursor,
            "next_after": next_after,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event import Event # noqa: PLC0415
        d = dict(src_dict)
        game_id = d.pop("game_id")

        version = d.pop("version")

        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            events_item = Event.from_dict(events_item_data)



            events.append(events_item)


        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))


        def _parse_next_after(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        next_after = _parse_next_after(d.pop("next_after"))


        events_page = cls(
            game_id=game_id,
            version=version,
            events=events,
            next_cursor=next_cursor,
            next_after=next_after,
        )

        return events_page

