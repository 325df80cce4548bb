from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ChainHead")



@_attrs_define
class ChainHead:
    """ 
        Attributes:
            length (int): Number of events.
            head (None | str): The `hash` of the last event.
     """

    length: int
    head: None | str





    def to_dict(self) -> dict[str, Any]:
        length = self.length

        head: None | str
        head = self.head


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "length": length,
            "head": head,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        length = d.pop("length")

        def _parse_head(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        head = _parse_head(d.pop("head"))


        chain_head = cls(
            length=length,
            head=head,
        )

        return chain_head

