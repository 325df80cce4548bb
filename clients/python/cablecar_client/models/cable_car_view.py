from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.cable_car_me import CableCarMe
  from ..models.cable_car_player import CableCarPlayer
  from ..models.cable_car_result import CableCarResult
  from ..models.cable_car_view_stops import CableCarViewStops
  from ..models.clock_time_control import ClockTimeControl
  from ..models.no_time_control import NoTimeControl
  from ..models.per_turn_time_control import PerTurnTimeControl
  from ..models.placed_tile import PlacedTile
  from ..models.seat_clock import SeatClock





T = TypeVar("T", bound="CableCarView")



@_attrs_define
class CableCarView:
    """ A cable-car game as the caller may see it (it starts `playing`; there are no setup choices). `me` is there
    only with a seat token, `result` once the game is finished.

        Attributes:
            type_ (Literal['cable-car']):
            id (str): The game id.
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            version (int): The seq of the last event this view includes (the `ETag`).
            active_seats (list[int]): The seats that may make a move now (several during setup, none once the game is over).
                Any seat still
                in may also resign at any time.
            turn (int | None): The seat whose turn it is (`null` once over).
            turn_number (int):
            tiles (list[PlacedTile]): The tiles on the board.
            stops (CableCarViewStops): Stop letter → the `[row, col]` of its stop tile once one is laid next to it, else
                `null`.
            pile_count (int): Tiles left in the draw pile.
            players (list[CableCarPlayer]): One entry per seat, in seat order.
            time_control (ClockTimeControl | NoTimeControl | PerTurnTimeControl): How long the seats may think (see *Time
                controls, resignations and forfeits*): `kind` tells which. In a view
                it is the control as created, a `clock` with its `increment_seconds` always shown.
            clocks (list[SeatClock]): Every seat's clock at the view's version, in seat order; empty for an untimed game.
                Once the game is over
                no clock runs.
            deadline (datetime.datetime | None): When the earliest running deadline passes (ISO 8601, UTC), or `null`
                (untimed, or over). The seat whose
                clock runs out then is timed out by the server (see *Time controls, resignations and forfeits*).
            seed_commitment (None | str | Unset): The game's seed commitment.
            open_deal (bool | Unset): True when the caller's seed alone made the deal (anyone who knows it knows every
                hand); false when a server secret, committed at creation and revealed by the export, was mixed in.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
            batch_ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see
                `Ref`), or `null`: none.
            starts_at (datetime.datetime | None | Unset): When a scheduled game starts (ISO 8601, UTC), while it waits
                (`status` `scheduled`); otherwise absent from
                a view and `null` in the listing.
            me (CableCarMe | Unset): The caller's own secrets.
            result (CableCarResult | None | Unset): Once finished, the final result; `null` (or absent) before, and for a
                cancelled game.
            damaged_from (int | Unset): Only for a damaged game (its stored record fails its chain or signature check from
                this event on): the
                seq of the first bad event. What is shown is the game up to the event before it (`version`); every
                action or write answers `409 game_damaged` until an operator moves the bad events aside (`cablecar
                quarantine`, recorded as an `events_quarantined` event), which is possible only for events no published
                checkpoint of the transparency log holds. Absent for a sound game.
     """

    type_: Literal['cable-car']
    id: str
    status: str
    version: int
    active_seats: list[int]
    turn: int | None
    turn_number: int
    tiles: list[PlacedTile]
    stops: CableCarViewStops
    pile_count: int
    players: list[CableCarPlayer]
    time_control: ClockTimeControl | NoTimeControl | PerTurnTimeControl
    clocks: list[SeatClock]
    deadline: datetime.datetime | None
    seed_commitment: None | str | Unset = UNSET
    open_deal: bool | Unset = UNSET
    ref: None | str | Unset = UNSET
    batch_ref: None | str | Unset = UNSET
    starts_at: datetime.datetime | None | Unset = UNSET
    me: CableCarMe | Unset = UNSET
    result: CableCarResult | None | Unset = UNSET
    damaged_from: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cable_car_me import CableCarMe # noqa: PLC0415
        from ..models.cable_car_player import CableCarPlayer # noqa: PLC0415
        from ..models.cable_car_result import CableCarResult # noqa: PLC0415
        from ..models.cable_car_view_stops import CableCarViewStops # noqa: PLC0415
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.placed_tile import PlacedTile # noqa: PLC0415
        from ..models.seat_clock import SeatClock # noqa: PLC0415
        type_ = self.type_

        id = self.id

        status = self.status

        version = self.version

        active_seats = self.active_seats



        turn: int | None
        turn = self.turn

        turn_number = self.turn_number

        tiles = []
        for tiles_item_data in self.tiles:
            tiles_item = tiles_item_data.to_dict()
            tiles.append(tiles_item)



        stops = self.stops.to_dict()

        pile_count = self.pile_count

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        time_control: dict[str, Any]
        if isinstance(self.time_control, NoTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, PerTurnTimeControl):
            time_control = self.time_control.to_dict()
        else:
            time_control = self.time_control.to_dict()


        clocks = []
        for componentsschemas_seat_clocks_item_data in self.clocks:
            componentsschemas_seat_clocks_item = componentsschemas_seat_clocks_item_data.to_dict()
            clocks.append(componentsschemas_seat_clocks_item)



        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        seed_commitment: None | str | Unset
        if isinstance(self.seed_commitment, Unset):
            seed_commitment = UNSET
        else:
            seed_commitment = self.seed_commitment

        open_deal = self.open_deal

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref

        batch_ref: None | str | Unset
        if isinstance(self.batch_ref, Unset):
            batch_ref = UNSET
        else:
            batch_ref = self.batch_ref

        starts_at: None | str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        elif isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

        me: dict[str, Any] | Unset = UNSET
        if not isinstance(self.me, Unset):
            me = self.me.to_dict()

        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, CableCarResult):
            result = self.result.to_dict()
        else:
            result = self.result

        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "id": id,
            "status": status,
            "version": version,
            "active_seats": active_seats,
            "turn": turn,
            "turn_number": turn_number,
            "tiles": tiles,
            "stops": stops,
            "pile_count": pile_count,
            "players": players,
            "time_control": time_control,
            "clocks": clocks,
            "deadline": deadline,
        })
        if seed_commitment is not UNSET:
            field_dict["seed_commitment"] = seed_commitment
        if open_deal is not UNSET:
            field_dict["open_deal"] = open_deal
        if ref is not UNSET:
            field_dict["ref"] = ref
        if batch_ref is not UNSET:
            field_dict["batch_ref"] = batch_ref
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if me is not UNSET:
            field_dict["me"] = me
        if result is not UNSET:
            field_dict["result"] = result
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cable_car_me import CableCarMe # noqa: PLC0415
        from ..models.cable_car_player import CableCarPlayer # noqa: PLC0415
        from ..models.cable_car_result import CableCarResult # noqa: PLC0415
        from ..models.cable_car_view_stops import CableCarViewStops # noqa: PLC0415
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.placed_tile import PlacedTile # noqa: PLC0415
        from ..models.seat_clock import SeatClock # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['cable-car'] , d.pop("type"))
        if type_ != 'cable-car':
            raise ValueError(f"type must match const 'cable-car', got '{type_}'")

        id = d.pop("id")

        status = d.pop("status")

        version = d.pop("version")

        active_seats = cast(list[int], d.pop("active_seats"))


        def _parse_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn = _parse_turn(d.pop("turn"))


        turn_number = d.pop("turn_number")

        tiles = []
        _tiles = d.pop("tiles")
        for tiles_item_data in (_tiles):
            tiles_item = PlacedTile.from_dict(tiles_item_data)



            tiles.append(tiles_item)


        stops = CableCarViewStops.from_dict(d.pop("stops"))




        pile_count = d.pop("pile_count")

        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = CableCarPlayer.from_dict(players_item_data)



            players.append(players_item)


        def _parse_time_control(data: object) -> ClockTimeControl | NoTimeControl | PerTurnTimeControl:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_0 = NoTimeControl.from_dict(data)



                return componentsschemas_time_control_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_1 = PerTurnTimeControl.from_dict(data)



                return componentsschemas_time_control_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_time_control_type_2 = ClockTimeControl.from_dict(data)



            return componentsschemas_time_control_type_2

        time_control = _parse_time_control(d.pop("time_control"))


        clocks = []
        _clocks = d.pop("clocks")
        for componentsschemas_seat_clocks_item_data in (_clocks):
            componentsschemas_seat_clocks_item = SeatClock.from_dict(componentsschemas_seat_clocks_item_data)



            clocks.append(componentsschemas_seat_clocks_item)


        def _parse_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_deadline_type_0 = datetime.datetime.fromisoformat(data)



                return componentsschemas_deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline = _parse_deadline(d.pop("deadline"))


        def _parse_seed_commitment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed_commitment = _parse_seed_commitment(d.pop("seed_commitment", UNSET))


        open_deal = d.pop("open_deal", UNSET)

        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        def _parse_batch_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        batch_ref = _parse_batch_ref(d.pop("batch_ref", UNSET))


        def _parse_starts_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_starts_at_type_0 = datetime.datetime.fromisoformat(data)



                return componentsschemas_starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_at = _parse_starts_at(d.pop("starts_at", UNSET))


        _me = d.pop("me", UNSET)
        me: CableCarMe | Unset
        if isinstance(_me,  Unset):
            me = UNSET
        else:
            me = CableCarMe.from_dict(_me)




        def _parse_result(data: object) -> CableCarResult | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = CableCarResult.from_dict(data)



                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CableCarResult | None | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        damaged_from = d.pop("damaged_from", UNSET)

        cable_car_view = cls(
            type_=type_,
            id=id,
            status=status,
            version=version,
            active_seats=active_seats,
            turn=turn,
            turn_number=turn_number,
            tiles=tiles,
            stops=stops,
            pile_count=pile_count,
            players=players,
            time_control=time_control,
            clocks=clocks,
            deadline=deadline,
            seed_commitment=seed_commitment,
            open_deal=open_deal,
            ref=ref,
            batch_ref=batch_ref,
            starts_at=starts_at,
            me=me,
            result=result,
            damaged_from=damaged_from,
        )


        cable_car_view.additional_properties = d
        return cable_car_view

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
