from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.ttr_location import TtrLocation
  from ..models.ttr_route import TtrRoute
  from ..models.ttr_sf_board_route_points import TtrSfBoardRoutePoints
  from ..models.ttr_sf_board_souvenir_points import TtrSfBoardSouvenirPoints
  from ..models.ttr_sf_board_transport_cards import TtrSfBoardTransportCards
  from ..models.ttr_ticket import TtrTicket





T = TypeVar("T", bound="TtrSfBoard")



@_attrs_define
class TtrSfBoard:
    """ The San Francisco map of Ticket to Ride.

        Attributes:
            type_ (Literal['ttr-sf']):
            locations (list[TtrLocation]):
            routes (list[TtrRoute]):
            tickets (list[TtrTicket]):
            id (str | Unset):
            name (str | Unset):
            route_points (TtrSfBoardRoutePoints | Unset): Route length → points.
            souvenir_points (TtrSfBoardSouvenirPoints | Unset): Number of different souvenir symbols held → points.
            souvenir_symbols (list[str] | Unset):
            fixed_souvenir_locations (list[str] | Unset):
            transport_cards (TtrSfBoardTransportCards | Unset): Colour → number of cards in the game.
            cars_per_player (int | Unset):
            seat_colors (list[str] | Unset):
     """

    type_: Literal['ttr-sf']
    locations: list[TtrLocation]
    routes: list[TtrRoute]
    tickets: list[TtrTicket]
    id: str | Unset = UNSET
    name: str | Unset = UNSET
    route_points: TtrSfBoardRoutePoints | Unset = UNSET
    souvenir_points: TtrSfBoardSouvenirPoints | Unset = UNSET
    souvenir_symbols: list[str] | Unset = UNSET
    fixed_souvenir_locations: list[str] | Unset = UNSET
    transport_cards: TtrSfBoardTransportCards | Unset = UNSET
    cars_per_player: int | Unset = UNSET
    seat_colors: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.ttr_location import TtrLocation # noqa: PLC0415
        from ..models.ttr_route import TtrRoute # noqa: PLC0415
        from ..models.ttr_sf_board_route_points import TtrSfBoardRoutePoints # noqa: PLC0415
        from ..models.ttr_sf_board_souvenir_points import TtrSfBoardSouvenirPoints # noqa: PLC0415
        from ..models.ttr_sf_board_transport_cards import TtrSfBoardTransportCards # noqa: PLC0415
        from ..models.ttr_ticket import TtrTicket # noqa: PLC0415
        type_ = self.type_

        locations = []
        for locations_item_data in self.locations:
            locations_item = locations_item_data.to_dict()
            locations.append(locations_item)



        routes = []
        for routes_item_data in self.routes:
            routes_item = routes_item_data.to_dict()
            routes.append(routes_item)



        tickets = []
        for tickets_item_data in self.tickets:
            tickets_item = tickets_item_data.to_dict()
            tickets.append(tickets_item)



        id = self.id

        name = self.name

        route_points: dict[str, Any] | Unset = UNSET
        if not isinstance(self.route_points, Unset):
            route_points = self.route_points.to_dict()

        souvenir_points: dict[str, Any] | Unset = UNSET
        if not isinstance(self.souvenir_points, Unset):
            souvenir_points = self.souvenir_points.to_dict()

        souvenir_symbols: list[str] | Unset = UNSET
        if not isinstance(self.souvenir_symbols, Unset):
            souvenir_symbols = self.souvenir_symbols



        fixed_souvenir_locations: list[str] | Unset = UNSET
        if not isinstance(self.fixed_souvenir_locations, Unset):
            fixed_souvenir_locations = self.fixed_souvenir_locations



        transport_cards: dict[str, Any] | Unset = UNSET
        if not isinstance(self.transport_cards, Unset):
            transport_cards = self.transport_cards.to_dict()

        cars_per_player = self.cars_per_player

        seat_colors: list[str] | Unset = UNSET
        if not isinstance(self.seat_colors, Unset):
            seat_colors = self.seat_colors




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "locations": locations,
            "routes": routes,
            "tickets": tickets,
        })
        if id is not UNSET:
            field_dict["id"] = id
        if name is not UNSET:
            field_dict["name"] = name
        if route_points is not UNSET:
            field_dict["route_points"] = route_points
        if souvenir_points is not UNSET:
            field_dict["souvenir_points"] = souvenir_points
        if souvenir_symbols is not UNSET:
            field_dict["souvenir_symbols"] = souvenir_symbols
        if fixed_souvenir_locations is not UNSET:
            field_dict["fixed_souvenir_locations"] = fixed_souvenir_locations
        if transport_cards is not UNSET:
            field_dict["transport_cards"] = transport_cards
        if cars_per_player is not UNSET:
            field_dict["cars_per_player"] = cars_per_player
        if seat_colors is not UNSET:
            field_dict["seat_colors"] = seat_colors

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ttr_location import TtrLocation # noqa: PLC0415
        from ..models.ttr_route import TtrRoute # noqa: PLC0415
        from ..models.ttr_sf_board_route_points import TtrSfBoardRoutePoints # noqa: PLC0415
        from ..models.ttr_sf_board_souvenir_points import TtrSfBoardSouvenirPoints # noqa: PLC0415
        from ..models.ttr_sf_board_transport_cards import TtrSfBoardTransportCards # noqa: PLC0415
        from ..models.ttr_ticket import TtrTicket # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['ttr-sf'] , d.pop("type"))
        if type_ != 'ttr-sf':
            raise ValueError(f"type must match const 'ttr-sf', got '{type_}'")

        locations = []
        _locations = d.pop("locations")
        for locations_item_data in (_locations):
            locations_item = TtrLocation.from_dict(locations_item_data)



            locations.append(locations_item)


        routes = []
        _routes = d.pop("routes")
        for routes_item_data in (_routes):
            routes_item = TtrRoute.from_dict(routes_item_data)



            routes.append(routes_item)


        tickets = []
        _tickets = d.pop("tickets")
        for tickets_item_data in (_tickets):
            tickets_item = TtrTicket.from_dict(tickets_item_data)



            tickets.append(tickets_item)


        id = d.pop("id", UNSET)

        name = d.pop("name", UNSET)

        _route_points = d.pop("route_points", UNSET)
        route_points: TtrSfBoardRoutePoints | Unset
        if isinstance(_route_points,  Unset):
            route_points = UNSET
        else:
            route_points = TtrSfBoardRoutePoints.from_dict(_route_points)




        _souvenir_points = d.pop("souvenir_points", UNSET)
        souvenir_points: TtrSfBoardSouvenirPoints | Unset
        if isinstance(_souvenir_points,  Unset):
            souvenir_points = UNSET
        else:
            souvenir_points = TtrSfBoardSouvenirPoints.from_dict(_souvenir_points)




        souvenir_symbols = cast(list[str], d.pop("souvenir_symbols", UNSET))


        fixed_souvenir_locations = cast(list[str], d.pop("fixed_souvenir_locations", UNSET))


        _transport_cards = d.pop("transport_cards", UNSET)
        transport_cards: TtrSfBoardTransportCards | Unset
        if isinstance(_transport_cards,  Unset):
            transport_cards = UNSET
        else:
            transport_cards = TtrSfBoardTransportCards.from_dict(_transport_cards)




        cars_per_player = d.pop("cars_per_player", UNSET)

        seat_colors = cast(list[str], d.pop("seat_colors", UNSET))


        ttr_sf_board = cls(
            type_=type_,
            locations=locations,
            routes=routes,
            tickets=tickets,
            id=id,
            name=name,
            route_points=route_points,
            souvenir_points=souvenir_points,
            souvenir_symbols=souvenir_symbols,
            fixed_souvenir_locations=fixed_souvenir_locations,
            transport_cards=transport_cards,
            cars_per_player=cars_per_player,
            seat_colors=seat_colors,
        )


        ttr_sf_board.additional_properties = d
        return ttr_sf_board

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
