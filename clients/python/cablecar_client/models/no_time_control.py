from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="NoTimeControl")



@_attrs_define
class NoTimeControl:
    """ No deadlines (the default).

        Attributes:
            kind (Literal['none']):
     """

    kind: Literal['none']





    def to_dict(self) -> dict[str, Any]:
        kind = self.kind


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal['none'] , d.pop("kind"))
        if kind != 'none':
            raise ValueError(f"kind must match const 'none', got '{kind}'")

        no_time_control = cls(
            kind=kind,
        )

        return no_time_control

