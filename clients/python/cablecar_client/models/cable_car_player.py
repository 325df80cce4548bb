from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cable_car_line_id import CableCarLineId
from ..models.cable_car_tile_id import CableCarTileId
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ride import Ride
  from ..models.tram import Tram





T = TypeVar("T", bound="CableCarPlayer")



@_attrs_define
class CableCarPlayer:
    """ 
        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            name (str):
            line (CableCarLineId | None): The seat's line once it rides (or the game is over), else `null` (secret).
            route (list[str] | None): The stop letters of its route card once it rides (or the game is over), else `null`.
            hand (list[CableCarTileId]): Tile ids held (hands are open).
            hand_count (int):
            riding (bool): Whether the seat has started its inaugural ride (it lays no more tiles).
            tram (None | Tram): Where its tram is, once riding.
            ride (None | Ride): The fixed path of its ride, once riding.
            last_roll (None | str): The last die face it rolled (`1`–`4` or `H`).
            standing (str): Whether a seat is still in (`in`; it stays `in` once the game ended if it played to the end),
                `resigned`,
                or `timed_out` (its deadline passed). A seat that resigned or timed out is out: its turns are skipped, it
                never wins and it ranks below every seat still in (see *Time controls, resignations and forfeits*). Open:
                treat a value you do not know as out.
            bot (None | str | Unset): The server-side bot playing this seat (one of the type's `bots`), or `null` for a
                person.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
     """

    seat: int
    name: str
    line: CableCarLineId | None
    route: list[str] | None
    hand: list[CableCarTileId]
    hand_count: int
    riding: bool
    tram: None | Tram
    ride: None | Ride
    last_roll: None | str
    standing: str
    bot: None | str | Unset = UNSET
    ref: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.ride import Ride # noqa: PLC0415
        from ..models.tram import Tram # noqa: PLC0415
        seat = self.seat

        name = self.name

        line: None | str
        if isinstance(self.line, CableCarLineId):
            line = self.line.value
        else:
            line = self.line

        route: list[str] | None
        if isinstance(self.route, list):
            route = self.route


        else:
            route = self.route

        hand = []
        for hand_item_data in self.hand:
            hand_item = hand_item_data.value
            hand.append(hand_item)



        hand_count = self.hand_count

        riding = self.riding

        tram: dict[str, Any] | None
        if isinstance(self.tram, Tram):
            tram = self.tram.to_dict()
        else:
            tram = self.tram

        ride: dict[str, Any] | None
        if isinstance(self.ride, Ride):
            ride = self.ride.to_dict()
        else:
            ride = self.ride

        last_roll: None | str
        last_roll = self.last_roll

        standing = self.standing

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


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "seat": seat,
            "name": name,
            "line": line,
            "route": route,
            "hand": hand,
            "hand_count": hand_count,
            "riding": riding,
            "tram": tram,
            "ride": ride,
            "last_roll": last_roll,
            "standing": standing,
        })
        if bot is not UNSET:
            field_dict["bot"] = bot
        if ref is not UNSET:
            field_dict["ref"] = ref

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ride import Ride # noqa: PLC0415
        from ..models.tram import Tram # noqa: PLC0415
        d = dict(src_dict)
        seat = d.pop("seat")

        name = d.pop("name")

        def _parse_line(data: object) -> CableCarLineId | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                line_type_0 = CableCarLineId(data)



                return line_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CableCarLineId | None, data)

        line = _parse_line(d.pop("line"))


        def _parse_route(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                route_type_0 = cast(list[str], data)

                return route_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        route = _parse_route(d.pop("route"))


        hand = []
        _hand = d.pop("hand")
        for hand_item_data in (_hand):
            hand_item = CableCarTileId(hand_item_data)



            hand.append(hand_item)


        hand_count = d.pop("hand_count")

        riding = d.pop("riding")

        def _parse_tram(data: object) -> None | Tram:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tram_type_0 = Tram.from_dict(data)



                return tram_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Tram, data)

        tram = _parse_tram(d.pop("tram"))


        def _parse_ride(data: object) -> None | Ride:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ride_type_0 = Ride.from_dict(data)



                return ride_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Ride, data)

        ride = _parse_ride(d.pop("ride"))


        def _parse_last_roll(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_roll = _parse_last_roll(d.pop("last_roll"))


        standing = d.pop("standing")

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


        cable_car_player = cls(
            seat=seat,
            name=name,
            line=line,
            route=route,
            hand=hand,
            hand_count=hand_count,
            riding=riding,
            tram=tram,
            ride=ride,
            last_roll=last_roll,
            standing=standing,
            bot=bot,
            ref=ref,
        )


        cable_car_player.additional_properties = d
        return cable_car_player

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
