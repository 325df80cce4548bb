from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="RecordedQuarantine")



@_attrs_define
class RecordedQuarantine:
    """ An `events_quarantined` event of a record, as its signed payload states it.

        Attributes:
            seq (int): The seq of the `events_quarantined` event (the place of the first event moved aside).
            from_seq (int):
            to_seq (int):
            count (int):
            hashes (list[str] | None): The hashes of the events moved aside, in order (null in a record from before issue
                48).
            recorded_at (str):
     """

    seq: int
    from_seq: int
    to_seq: int
    count: int
    hashes: list[str] | None
    recorded_at: str





    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        from_seq = self.from_seq

        to_seq = self.to_seq

        count = self.count

        hashes: list[str] | None
        if isinstance(self.hashes, list):
            hashes = self.hashes


        else:
            hashes = self.hashes

        recorded_at = self.recorded_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "seq": seq,
            "from_seq": from_seq,
            "to_seq": to_seq,
            "count": count,
            "hashes": hashes,
            "recorded_at": recorded_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seq = d.pop("seq")

        from_seq = d.pop("from_seq")

        to_seq = d.pop("to_seq")

        count = d.pop("count")

        def _parse_hashes(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                hashes_type_0 = cast(list[str], data)

                return hashes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        hashes = _parse_hashes(d.pop("hashes"))


        recorded_at = d.pop("recorded_at")

        recorded_quarantine = cls(
            seq=seq,
            from_seq=from_seq,
            to_seq=to_seq,
            count=count,
            hashes=hashes,
            recorded_at=recorded_at,
        )

        return recorded_quarantine

