from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.ttr_ticket_result import TtrTicketResult





T = TypeVar("T", bound="TtrPlayerResult")



@_attrs_define
class TtrPlayerResult:
    """ 
        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            route_points (int):
            ticket_points (int): Completed tickets add, uncompleted ones subtract.
            souvenir_points (int):
            total (int):
            completed_tickets (int):
            tickets (list[TtrTicketResult]):
            standing (str): Whether a seat is still in (`in`; it stays `in` once the game ended if it played to the end),
                `resigned`,
                or `timed_out` (its deadline passed). A seat that resigned or timed out is out: its turns are skipped, it
                never wins and it ranks below every seat still in (see *Time controls, resignations and forfeits*). Open:
                treat a value you do not know as out.
     """

    seat: int
    route_points: int
    ticket_points: int
    souvenir_points: int
    total: int
    completed_tickets: int
    tickets: list[TtrTicketResult]
    standing: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.ttr_ticket_result import TtrTicketResult # noqa: PLC0415
        seat = self.seat

        route_points = self.route_points

        ticket_points = self.ticket_points

        souvenir_points = self.souvenir_points

        total = self.total

        completed_tickets = self.completed_tickets

        tickets = []
        for tickets_item_data in self.tickets:
            tickets_item = tickets_item_data.to_dict()
            tickets.append(tickets_item)



        standing = self.standing


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seat": seat,
            "route_points": route_points,
            "ticket_points": ticket_points,
            "souvenir_points": souvenir_points,
            "total": total,
            "completed_tickets": completed_tickets,
            "tickets": tickets,
            "standing": standing,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ttr_ticket_result import TtrTicketResult # noqa: PLC0415
        d = dict(src_dict)
        seat = d.pop("seat")

        route_points = d.pop("route_points")

        ticket_points = d.pop("ticket_points")

        souvenir_points = d.pop("souvenir_points")

        total = d.pop("total")

        completed_tickets = d.pop("completed_tickets")

        tickets = []
        _tickets = d.pop("tickets")
        for tickets_item_data in (_tickets):
            tickets_item = TtrTicketResult.from_dict(tickets_item_data)



            tickets.append(tickets_item)


        standing = d.pop("standing")

        ttr_player_result = cls(
            seat=seat,
            route_points=route_points,
            ticket_points=ticket_points,
            souvenir_points=souvenir_points,
            total=total,
            completed_tickets=completed_tickets,
            tickets=tickets,
            standing=standing,
        )


        ttr_player_result.additional_properties = d
        return ttr_player_result

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
