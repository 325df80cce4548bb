from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.clock_time_control import ClockTimeControl
  from ..models.no_time_control import NoTimeControl
  from ..models.per_turn_time_control import PerTurnTimeControl
  from ..models.seat_token import SeatToken





T = TypeVar("T", bound="GameCreated")



@_attrs_define
class GameCreated:
    """ 
        Attributes:
            id (str): The game id.
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            version (int): The number of opening events.
            seed_commitment (str): `sha256(salt + ":" + seed)` in hexadecimal; the seed and salt are revealed by the export.
            seed_source (str): Whether the caller sent a seed (`caller`) or not (`server`); open.
            seats (list[SeatToken]):
            host_token (str): The host's token (reads the game, rotates seat tokens, cancels; cannot act). Shown only here.
            time_control (ClockTimeControl | NoTimeControl | PerTurnTimeControl): How long the seats may think (see *Time
                controls, resignations and forfeits*): `kind` tells which. In a view
                it is the control as created, a `clock` with its `increment_seconds` always shown.
            open_deal (bool | Unset): True when the caller's seed alone made the deal (anyone who knows it knows every
                hand); false when a server secret, committed at creation and revealed by the export, was mixed in.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
     """

    id: str
    type_: GameTypeId
    status: str
    version: int
    seed_commitment: str
    seed_source: str
    seats: list[SeatToken]
    host_token: str
    time_control: ClockTimeControl | NoTimeControl | PerTurnTimeControl
    open_deal: bool | Unset = UNSET
    ref: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.seat_token import SeatToken # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        status = self.status

        version = self.version

        seed_commitment = self.seed_commitment

        seed_source = self.seed_source

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)



        host_token = self.host_token

        time_control: dict[str, Any]
        if isinstance(self.time_control, NoTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, PerTurnTimeControl):
            time_control = self.time_control.to_dict()
        else:
            time_control = self.time_control.to_dict()


        open_deal = self.open_deal

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
            "status": status,
            "version": version,
            "seed_commitment": seed_commitment,
            "seed_source": seed_source,
            "seats": seats,
            "host_token": host_token,
            "time_control": time_control,
        })
        if open_deal is not UNSET:
            field_dict["open_deal"] = open_deal
        if ref is not UNSET:
            field_dict["ref"] = ref

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.seat_token import SeatToken # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = GameTypeId(d.pop("type"))




        status = d.pop("status")

        version = d.pop("version")

        seed_commitment = d.pop("seed_commitment")

        seed_source = d.pop("seed_source")

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in (_seats):
            seats_item = SeatToken.from_dict(seats_item_data)



            seats.append(seats_item)


        host_token = d.pop("host_token")

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


        open_deal = d.pop("open_deal", UNSET)

        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        game_created = cls(
            id=id,
            type_=type_,
            status=status,
            version=version,
            seed_commitment=seed_commitment,
            seed_source=seed_source,
            seats=seats,
            host_token=host_token,
            time_control=time_control,
            open_deal=open_deal,
            ref=ref,
        )

        return game_created

