from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.action_body_field import ActionBodyField





T = TypeVar("T", bound="ActionBody")



@_attrs_define
class ActionBody:
    """ 
        Attributes:
            type_ (str): The action `type`.
            fields (list[ActionBodyField]): The body's fields besides `type`, in the order the game declares them.
     """

    type_: str
    fields: list[ActionBodyField]





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_body_field import ActionBodyField # noqa: PLC0415
        type_ = self.type_

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "fields": fields,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_body_field import ActionBodyField # noqa: PLC0415
        d = dict(src_dict)
        type_ = d.pop("type")

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = ActionBodyField.from_dict(fields_item_data)



            fields.append(fields_item)


        action_body = cls(
            type_=type_,
            fields=fields,
        )

        return action_body

