from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from typing import cast

if TYPE_CHECKING:
  from ..models.event_catalogue_entry import EventCatalogueEntry





T = TypeVar("T", bound="EventCatalogue")



@_attrs_define
class EventCatalogue:
    """ The event catalogue of one game type (`GET /v1/game-types/{type}/events`).

        Attributes:
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            events (list[EventCatalogueEntry]): One entry per event type and schema version, in the game's declaration
                order, oldest version first.
     """

    type_: GameTypeId
    events: list[EventCatalogueEntry]





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_catalogue_entry import EventCatalogueEntry # noqa: PLC0415
        type_ = self.type_.value

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "events": events,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_catalogue_entry import EventCatalogueEntry # noqa: PLC0415
        d = dict(src_dict)
        type_ = GameTypeId(d.pop("type"))




        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            events_item = EventCatalogueEntry.from_dict(events_item_data)



            events.append(events_item)


        event_catalogue = cls(
            type_=type_,
            events=events,
        )

        return event_catalogue

