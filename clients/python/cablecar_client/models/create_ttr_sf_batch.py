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
  from ..models.clock_time_control import ClockTimeControl
  from ..models.no_time_control import NoTimeControl
  from ..models.per_turn_time_control import PerTurnTimeControl
  from ..models.ttr_sf_table import TtrSfTable





T = TypeVar("T", bound="CreateTtrSfBatch")



@_attrs_define
class CreateTtrSfBatch:
    """ A batch of `ttr-sf` games, one per table.

        Attributes:
            type_ (Literal['ttr-sf']):
            tables (list[TtrSfTable]): At most the server's table cap (`CABLECAR_MAX_BATCH_TABLES`, 50 by default; more is
                `400`).
            name (None | str | Unset): A label, e.g. the round (no control characters).
            time_control (ClockTimeControl | None | NoTimeControl | PerTurnTimeControl | Unset): Every table's time control
                (as in `POST /v1/games`), unless a table names its own; omitted or `null`:
                none.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player): 1 to 128 printable
                characters (no control,
                format or separator characters but the space), returned unchanged wherever the thing appears; `null` (or
                omitted): none. Never secret, never changed. A bad ref is `400 invalid_request` naming the field (e.g.
                `tables.1.players.0.ref`), and nothing is created.
            start_at (datetime.datetime | None | Unset): Schedule the round (ISO 8601 in UTC, `Z` or `+00:00`): its games,
                seat tokens and links exist at once, but
                every table waits until then (`status` `scheduled`, `starts_at`; actions are `409 not_started`; no clock
                runs; bot seats wait), then all start together (each game records `game_started`, by the database's time;
                clocks start from it; `game.started` webhooks fire then). `POST /v1/batches/{batch_id}/start` starts
                them earlier. After now and at most 7 days ahead (by the database's clock), else `400 invalid_request`
                naming `start_at`, and nothing is created. Omitted or `null`: the games start when created.
     """

    type_: Literal['ttr-sf']
    tables: list[TtrSfTable]
    name: None | str | Unset = UNSET
    time_control: ClockTimeControl | None | NoTimeControl | PerTurnTimeControl | Unset = UNSET
    ref: None | str | Unset = UNSET
    start_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.ttr_sf_table import TtrSfTable # noqa: PLC0415
        type_ = self.type_

        tables = []
        for tables_item_data in self.tables:
            tables_item = tables_item_data.to_dict()
            tables.append(tables_item)



        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

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

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref

        start_at: None | str | Unset
        if isinstance(self.start_at, Unset):
            start_at = UNSET
        elif isinstance(self.start_at, datetime.datetime):
            start_at = self.start_at.isoformat()
        else:
            start_at = self.start_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "tables": tables,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if time_control is not UNSET:
            field_dict["time_control"] = time_control
        if ref is not UNSET:
            field_dict["ref"] = ref
        if start_at is not UNSET:
            field_dict["start_at"] = start_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.ttr_sf_table import TtrSfTable # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['ttr-sf'] , d.pop("type"))
        if type_ != 'ttr-sf':
            raise ValueError(f"type must match const 'ttr-sf', got '{type_}'")

        tables = []
        _tables = d.pop("tables")
        for tables_item_data in (_tables):
            tables_item = TtrSfTable.from_dict(tables_item_data)



            tables.append(tables_item)


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


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


        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        def _parse_start_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_start_at_type_0 = datetime.datetime.fromisoformat(data)



                return componentsschemas_start_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        start_at = _parse_start_at(d.pop("start_at", UNSET))


        create_ttr_sf_batch = cls(
            type_=type_,
            tables=tables,
            name=name,
            time_control=time_control,
            ref=ref,
            start_at=start_at,
        )

        return create_ttr_sf_batch

