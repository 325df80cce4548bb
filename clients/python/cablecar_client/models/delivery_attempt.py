from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="DeliveryAttempt")



@_attrs_define
class DeliveryAttempt:
    """ 
        Attributes:
            attempt (int):
            at (datetime.datetime):
            status_code (int | None):
            error (None | str):
            duration_ms (int):
     """

    attempt: int
    at: datetime.datetime
    status_code: int | None
    error: None | str
    duration_ms: int





    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        at = self.at.isoformat()

        status_code: int | None
        status_code = self.status_code

        error: None | str
        error = self.error

        duration_ms = self.duration_ms


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "attempt": attempt,
            "at": at,
            "status_code": status_code,
            "error": error,
            "duration_ms": duration_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        at = datetime.datetime.fromisoformat(d.pop("at"))




        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))


        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        duration_ms = d.pop("duration_ms")

        delivery_attempt = cls(
            attempt=attempt,
            at=at,
            status_code=status_code,
            error=error,
            duration_ms=duration_ms,
        )

        return delivery_attempt

