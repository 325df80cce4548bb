from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.event_catalogue_entry_schema import EventCatalogueEntrySchema





T = TypeVar("T", bound="EventCatalogueEntry")



@_attrs_define
class EventCatalogueEntry:
    """ 
        Attributes:
            event_type (str): The event's `type` in the log.
            schema_version (int): The event's `schema_version` this entry describes.
            schema (EventCatalogueEntrySchema): The JSON Schema (2020-12) of the payload as exported (unredacted).
            redacted_fields (list[str]): The payload fields shown as `null` to callers who may not see them: `name` (the
                field) or `name[]`
                (the entries of a per-seat list: other seats' entries).
     """

    event_type: str
    schema_version: int
    schema: EventCatalogueEntrySchema
    redacted_fields: list[str]





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_catalogue_entry_schema import EventCatalogueEntrySchema # noqa: PLC0415
        event_type = self.event_type

        schema_version = self.schema_version

        schema = self.schema.to_dict()

        redacted_fields = self.redacted_fields




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "event_type": event_type,
            "schema_version": schema_version,
            "schema": schema,
            "redacted_fields": redacted_fields,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_catalogue_entry_schema import EventCatalogueEntrySchema # noqa: PLC0415
        d = dict(src_dict)
        event_type = d.pop("event_type")

        schema_version = d.pop("schema_version")

        schema = EventCatalogueEntrySchema.from_dict(d.pop("schema"))




        redacted_fields = cast(list[str], d.pop("redacted_fields"))


        event_catalogue_entry = cls(
            event_type=event_type,
            schema_version=schema_version,
            schema=schema,
            redacted_fields=redacted_fields,
        )

        return event_catalogue_entry

