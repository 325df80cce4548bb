from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.action_body_field_schema import ActionBodyFieldSchema





T = TypeVar("T", bound="ActionBodyField")



@_attrs_define
class ActionBodyField:
    """ 
        Attributes:
            name (str): The field's name in the JSON body.
            required (bool): Whether every body of this type carries it (an optional field may be absent or `null`).
            description (str): The accepted values, in words.
            schema (ActionBodyFieldSchema): The accepted values as a JSON Schema (2020-12) fragment.
     """

    name: str
    required: bool
    description: str
    schema: ActionBodyFieldSchema





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_body_field_schema import ActionBodyFieldSchema # noqa: PLC0415
        name = self.name

        required = self.required

        description = self.description

        schema = self.schema.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "required": required,
            "description": description,
            "schema": schema,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_body_field_schema import ActionBodyFieldSchema # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        required = d.pop("required")

        description = d.pop("description")

        schema = ActionBodyFieldSchema.from_dict(d.pop("schema"))




        action_body_field = cls(
            name=name,
            required=required,
            description=description,
            schema=schema,
        )

        return action_body_field

