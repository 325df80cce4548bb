from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="QuarantinedRun")



@_attrs_define
class QuarantinedRun:
    """ Events an operator moved aside (`cablecar quarantine`); kept by the server, never deleted.

        Attributes:
            from_seq (int): The seq of the first event moved aside (the `events_quarantined` event took its place).
            count (int):
            quarantined_at (datetime.datetime):
            reason (str):
     """

    from_seq: int
    count: int
    quarantined_at: datetime.datetime
    reason: str





    def to_dict(self) -> dict[str, Any]:
        from_seq = self.from_seq

        count = self.count

        quarantined_at = self.quarantined_at.isoformat()

        reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "from_seq": from_seq,
            "count": count,
            "quarantined_at": quarantined_at,
            "reason": reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_seq = d.pop("from_seq")

        count = d.pop("count")

        quarantined_at = datetime.datetime.fromisoformat(d.pop("quarantined_at"))




        reason = d.pop("reason")

        quarantined_run = cls(
            from_seq=from_seq,
            count=count,
            quarantined_at=quarantined_at,
            reason=reason,
        )

        return quarantined_run

