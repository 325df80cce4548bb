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
  from ..models.clock_time_control import ClockTimeControl
  from ..models.no_time_control import NoTimeControl
  from ..models.per_turn_time_control import PerTurnTimeControl
  from ..models.player_in import PlayerIn





T = TypeVar("T", bound="CreateCableCarGame")



@_attrs_define
class CreateCableCarGame:
    """ A new `cable-car` game (2 to 6 players). Player names are in seat order.

        Attributes:
            type_ (Literal['cable-car']):
            players (list[PlayerIn]): One entry per seat, 2 to 6 for `cable-car`; names must differ, ignoring case and look-
                alike characters: the
                server refuses a repeated name with `400 invalid_request` (not stated as `uniqueItems`, which generators read
                as a set type, and which compares whole entries only).
            seed (None | str | Unset): A tag mixed with the server's secret seed (reproducible per table, not predictable).
                With `open_deal` it alone fixes every shuffle and die roll. Omit it (or send `null`) for a random server seed.
            open_deal (bool | Unset): Deal from the caller's `seed` alone (required with it), so that anyone who knows the
                seed can reproduce every hand: for tests, puzzles and replays, never for competitive play. The game shows it to
                every seat. Omitted: `false`.
            start_seat (int | Unset): The seat that plays first (omitted: seat 0); it must be one of the game's seats (`422
                invalid_config`
                otherwise). (A request field with a default states it here, not as `default`: generators would make it
                required.)
            time_control (ClockTimeControl | None | NoTimeControl | PerTurnTimeControl | Unset): The game's deadlines (see
                *Time controls, resignations and forfeits*); omitted or `null`:
                `{"kind": "none"}`. Not an object: `400 invalid_request`; an unknown kind, a missing or unknown field, or
                a time that is not a whole number or out of range: `422 invalid_config` (`reason` `time_control`).
     """

    type_: Literal['cable-car']
    players: list[PlayerIn]
    seed: None | str | Unset = UNSET
    open_deal: bool | Unset = UNSET
    start_seat: int | Unset = UNSET
    time_control: ClockTimeControl | None | NoTimeControl | PerTurnTimeControl | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.player_in import PlayerIn # noqa: PLC0415
        type_ = self.type_

        players = []
        for componentsschemas_cable_car_players_item_data in self.players:
            componentsschemas_cable_car_players_item = componentsschemas_cable_car_players_item_data.to_dict()
            players.append(componentsschemas_cable_car_players_item)



        seed: None | str | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        open_deal = self.open_deal

        start_seat = self.start_seat

        time_control: dict[str, Any] | None | Unset
        if isinstance(self.time_control, Unset):
            time_control = UNSET
        elif isinstance(self.time_control, NoTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, PerTurnTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, ClockTimeControl):
            time_control = self.time_control.to_dict()
        else:
            time_control = self.time_control


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "players": players,
        })
        if seed is not UNSET:
            field_dict["seed"] = seed
        if open_deal is not UNSET:
            field_dict["open_deal"] = open_deal
        if start_seat is not UNSET:
            field_dict["start_seat"] = start_seat
        if time_control is not UNSET:
            field_dict["time_control"] = time_control

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.player_in import PlayerIn # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['cable-car'] , d.pop("type"))
        if type_ != 'cable-car':
            raise ValueError(f"type must match const 'cable-car', got '{type_}'")

        players = []
        _players = d.pop("players")
        for componentsschemas_cable_car_players_item_data in (_players):
            componentsschemas_cable_car_players_item = PlayerIn.from_dict(componentsschemas_cable_car_players_item_data)



            players.append(componentsschemas_cable_car_players_item)


        def _parse_seed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))


        open_deal = d.pop("open_deal", UNSET)

        start_seat = d.pop("start_seat", UNSET)

        def _parse_time_control(data: object) -> ClockTimeControl | None | NoTimeControl | PerTurnTimeControl | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
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
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_2 = ClockTimeControl.from_dict(data)



                return componentsschemas_time_control_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClockTimeControl | None | NoTimeControl | PerTurnTimeControl | Unset, data)

        time_control = _parse_time_control(d.pop("time_control", UNSET))


        create_cable_car_game = cls(
            type_=type_,
            players=players,
            seed=seed,
            open_deal=open_deal,
            start_seat=start_seat,
            time_control=time_control,
        )

        return create_cable_car_game

