from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="StreamEnd")



@_attrs_define
class StreamEnd:
    """ The data of the `end` message sent when the game is over, just before the server closes the stream;
    `status` is `finished` also for a cancelled game.

        Attributes:
            version (int):
            status (Literal['finished']):
     """

    version: int
    status: Literal['finished']





    def to_dict(self) -> dict[str, Any]:
        version = self.version

        status = self.status


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "version": version,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        status = cast(Literal['finished'] , d.pop("status"))
        if status != 'finished':
            raise ValueError(f"status must match const 'finished', got '{status}'")

        stream_end = cls(
            version=version,
            status=status,
        )

        return stream_end

