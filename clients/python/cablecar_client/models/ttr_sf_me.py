from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ttr_kept_ticket import TtrKeptTicket
  from ..models.ttr_sf_me_hand import TtrSfMeHand
  from ..models.ttr_ticket import TtrTicket





T = TypeVar("T", bound="TtrSfMe")



@_attrs_define
class TtrSfMe:
    """ The caller's own secrets.

        Attributes:
            hand (TtrSfMeHand): Colour → number of cards held.
            tickets (list[TtrKeptTicket]): Tickets kept, each with `completed`: whether the seat's own routes already join
                its two locations
                (it would score plus its points if the game ended now, minus otherwise).
            pending_tickets (list[TtrTicket]): Tickets dealt at setup or drawn, not chosen yet (send `keep_tickets`).
            seat (int | Unset): A seat number, 0-based, in turn order.
     """

    hand: TtrSfMeHand
    tickets: list[TtrKeptTicket]
    pending_tickets: list[TtrTicket]
    seat: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.ttr_kept_ticket import TtrKeptTicket # noqa: PLC0415
        from ..models.ttr_sf_me_hand import TtrSfMeHand # noqa: PLC0415
        from ..models.ttr_ticket import TtrTicket # noqa: PLC0415
        hand = self.hand.to_dict()

        tickets = []
        for tickets_item_data in self.tickets:
            tickets_item = tickets_item_data.to_dict()
            tickets.append(tickets_item)



        pending_tickets = []
        for pending_tickets_item_data in self.pending_tickets:
            pending_tickets_item = pending_tickets_item_data.to_dict()
            pending_tickets.append(pending_tickets_item)



        seat = self.seat


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "hand": hand,
            "tickets": tickets,
            "pending_tickets": pending_tickets,
        })
        if seat is not UNSET:
            field_dict["seat"] = seat

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ttr_kept_ticket import TtrKeptTicket # noqa: PLC0415
        from ..models.ttr_sf_me_hand import TtrSfMeHand # noqa: PLC0415
        from ..models.ttr_ticket import TtrTicket # noqa: PLC0415
        d = dict(src_dict)
        hand = TtrSfMeHand.from_dict(d.pop("hand"))




        tickets = []
        _tickets = d.pop("tickets")
        for tickets_item_data in (_tickets):
            tickets_item = TtrKeptTicket.from_dict(tickets_item_data)



            tickets.append(tickets_item)


        pending_tickets = []
        _pending_tickets = d.pop("pending_tickets")
        for pending_tickets_item_data in (_pending_tickets):
            pending_tickets_item = TtrTicket.from_dict(pending_tickets_item_data)



            pending_tickets.append(pending_tickets_item)


        seat = d.pop("seat", UNSET)

        ttr_sf_me = cls(
            hand=hand,
            tickets=tickets,
            pending_tickets=pending_tickets,
            seat=seat,
        )


        ttr_sf_me.additional_properties = d
        return ttr_sf_me

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
