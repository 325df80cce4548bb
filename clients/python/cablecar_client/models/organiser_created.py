from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="OrganiserCreated")



@_attrs_define
class OrganiserCreated:
    """ 
        Attributes:
            id (str):
            name (str):
            created_at (datetime.datetime):
            token (str): The organiser token (`Authorization: Bearer <token>`). Shown only here.
     """

    id: str
    name: str
    created_at: datetime.datetime
    token: str





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        created_at = self.created_at.isoformat()

        token = self.token


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "name": name,
            "created_at": created_at,
            "token": token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        token = d.pop("token")

        organiser_created = cls(
            id=id,
            name=name,
            created_at=created_at,
            token=token,
        )

        return organiser_created

