from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from typing import cast
import datetime






T = TypeVar("T", bound="BatchSummary")



@_attrs_define
class BatchSummary:
    """ 
        Attributes:
            id (str):
            name (None | str):
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            tables (int):
            created_at (datetime.datetime):
            ref (None | str): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`), or
                `null`: none.
            starts_at (datetime.datetime | None): The `start_at` the batch was created with (ISO 8601, UTC), or `null` (its
                games started when created).
     """

    id: str
    name: None | str
    type_: GameTypeId
    tables: int
    created_at: datetime.datetime
    ref: None | str
    starts_at: datetime.datetime | None





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name: None | str
        name = self.name

        type_ = self.type_.value

        tables = self.tables

        created_at = self.created_at.isoformat()

        ref: None | str
        ref = self.ref

        starts_at: None | str
        if isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "name": name,
            "type": type_,
            "tables": tables,
            "created_at": created_at,
            "ref": ref,
            "starts_at": starts_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        type_ = GameTypeId(d.pop("type"))




        tables = d.pop("tables")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        def _parse_starts_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_batch_starts_at_type_0 = datetime.datetime.fromisoformat(data)



                return componentsschemas_batch_starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        starts_at = _parse_starts_at(d.pop("starts_at"))


        batch_summary = cls(
            id=id,
            name=name,
            type_=type_,
            tables=tables,
            created_at=created_at,
            ref=ref,
            starts_at=starts_at,
        )

        return batch_summary

