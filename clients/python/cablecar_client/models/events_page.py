from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

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
            damaged_from (int | Unset): Only for a damaged game (its stored record fails its chain or signature check from
                this event on): the
                seq of the first bad event. What is shown is the game up to the event before it (`version`); every
                action or write answers `409 game_damaged` until an operator moves the bad events aside (`cablecar
                quarantine`, recorded as an `events_quarantined` event), which is possible only for events no published
                checkpoint of the transparency log holds. Absent for a sound game.
     """

    game_id: str
    version: int
    events: list[Event]
    next_cursor: None | str
    next_after: int | None
    damaged_from: int | Unset = UNSET





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

        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "game_id": game_id,
            "version": version,
            "events": events,
            "next_cursor": next_cursor,
            "next_after": next_after,
        })
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from

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


        damaged_from = d.pop("damaged_from", UNSET)

        events_page = cls(
            game_id=game_id,
            version=version,
            events=events,
            next_cursor=next_cursor,
            next_after=next_after,
            damaged_from=damaged_from,
        )

        return events_page

