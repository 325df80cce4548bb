from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stream_end_status import StreamEndStatus






T = TypeVar("T", bound="StreamEnd")



@_attrs_define
class StreamEnd:
    """ The data of the `end` message sent when the game is over, just before the server closes the stream;
    `status` is the game's final status: `finished`, or `cancelled` for a game its host cancelled.

        Attributes:
            version (int):
            status (StreamEndStatus):
     """

    version: int
    status: StreamEndStatus





    def to_dict(self) -> dict[str, Any]:
        version = self.version

        status = self.status.value


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

        status = StreamEndStatus(d.pop("status"))




        stream_end = cls(
            version=version,
            status=status,
        )

        return stream_end

