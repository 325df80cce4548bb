from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ttr_sf_player_hand import TtrSfPlayerHand
  from ..models.ttr_ticket import TtrTicket





T = TypeVar("T", bound="TtrSfPlayer")



@_attrs_define
class TtrSfPlayer:
    """ 
        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            name (str):
            color (str): The seat colour (purple, white, pink, blue).
            score (int): Route points so far.
            cars (int): Cars left.
            hand_count (int):
            ticket_count (int): Tickets kept.
            souvenirs (list[str]): Souvenir symbols held.
            standing (str): Whether a seat is still in (`in`; it stays `in` once the game ended if it played to the end),
                `resigned`,
                or `timed_out` (its deadline passed). A seat that resigned or timed out is out: its turns are skipped, it
                never wins and it ranks below every seat still in (see *Time controls, resignations and forfeits*). Open:
                treat a value you do not know as out.
            pending_ticket_count (int | Unset): Tickets dealt or drawn and not chosen yet.
            routes (list[str] | Unset): Route ids claimed, in claim order (they stay claimed when the seat is out).
            bot (None | str | Unset): The server-side bot playing this seat (one of the type's `bots`), or `null` for a
                person.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
            hand (TtrSfPlayerHand | Unset): Once over only, the cards held (colour → count).
            tickets (list[TtrTicket] | Unset): Once over only, the tickets kept.
     """

    seat: int
    name: str
    color: str
    score: int
    cars: int
    hand_count: int
    ticket_count: int
    souvenirs: list[str]
    standing: str
    pending_ticket_count: int | Unset = UNSET
    routes: list[str] | Unset = UNSET
    bot: None | str | Unset = UNSET
    ref: None | str | Unset = UNSET
    hand: TtrSfPlayerHand | Unset = UNSET
    tickets: list[TtrTicket] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.ttr_sf_player_hand import TtrSfPlayerHand # noqa: PLC0415
        from ..models.ttr_ticket import TtrTicket # noqa: PLC0415
        seat = self.seat

        name = self.name

        color = self.color

        score = self.score

        cars = self.cars

        hand_count = self.hand_count

        ticket_count = self.ticket_count

        souvenirs = self.souvenirs



        standing = self.standing

        pending_ticket_count = self.pending_ticket_count

        routes: list[str] | Unset = UNSET
        if not isinstance(self.routes, Unset):
            routes = self.routes



        bot: None | str | Unset
        if isinstance(self.bot, Unset):
            bot = UNSET
        else:
            bot = self.bot

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref

        hand: dict[str, Any] | Unset = UNSET
        if not isinstance(self.hand, Unset):
            hand = self.hand.to_dict()

        tickets: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tickets, Unset):
            tickets = []
            for tickets_item_data in self.tickets:
                tickets_item = tickets_item_data.to_dict()
                tickets.append(tickets_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seat": seat,
            "name": name,
            "color": color,
            "score": score,
            "cars": cars,
            "hand_count": hand_count,
            "ticket_count": ticket_count,
            "souvenirs": souvenirs,
            "standing": standing,
        })
        if pending_ticket_count is not UNSET:
            field_dict["pending_ticket_count"] = pending_ticket_count
        if routes is not UNSET:
            field_dict["routes"] = routes
        if bot is not UNSET:
            field_dict["bot"] = bot
        if ref is not UNSET:
            field_dict["ref"] = ref
        if hand is not UNSET:
            field_dict["hand"] = hand
        if tickets is not UNSET:
            field_dict["tickets"] = tickets

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ttr_sf_player_hand import TtrSfPlayerHand # noqa: PLC0415
        from ..models.ttr_ticket import TtrTicket # noqa: PLC0415
        d = dict(src_dict)
        seat = d.pop("seat")

        name = d.pop("name")

        color = d.pop("color")

        score = d.pop("score")

        cars = d.pop("cars")

        hand_count = d.pop("hand_count")

        ticket_count = d.pop("ticket_count")

        souvenirs = cast(list[str], d.pop("souvenirs"))


        standing = d.pop("standing")

        pending_ticket_count = d.pop("pending_ticket_count", UNSET)

        routes = cast(list[str], d.pop("routes", UNSET))


        def _parse_bot(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bot = _parse_bot(d.pop("bot", UNSET))


        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        _hand = d.pop("hand", UNSET)
        hand: TtrSfPlayerHand | Unset
        if isinstance(_hand,  Unset):
            hand = UNSET
        else:
            hand = TtrSfPlayerHand.from_dict(_hand)




        _tickets = d.pop("tickets", UNSET)
        tickets: list[TtrTicket] | Unset = UNSET
        if _tickets is not UNSET:
            tickets = []
            for tickets_item_data in _tickets:
                tickets_item = TtrTicket.from_dict(tickets_item_data)



                tickets.append(tickets_item)


        ttr_sf_player = cls(
            seat=seat,
            name=name,
            color=color,
            score=score,
            cars=cars,
            hand_count=hand_count,
            ticket_count=ticket_count,
            souvenirs=souvenirs,
            standing=standing,
            pending_ticket_count=pending_ticket_count,
            routes=routes,
            bot=bot,
            ref=ref,
            hand=hand,
            tickets=tickets,
        )


        ttr_sf_player.additional_properties = d
        return ttr_sf_player

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
