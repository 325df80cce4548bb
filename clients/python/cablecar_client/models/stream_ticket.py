from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="StreamTicket")



@_attrs_define
class StreamTicket:
    """ 
        Attributes:
            ticket (str): Opens the seat's event stream once: `GET /v1/games/{id}/events/stream?ticket=<ticket>`. Shown only
                here.
            expires_at (datetime.datetime): When the ticket lapses unused (ISO 8601, UTC), at most 60 s from now.
     """

    ticket: str
    expires_at: datetime.datetime





    def to_dict(self) -> dict[str, Any]:
        ticket = self.ticket

        expires_at = self.expires_at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ticket": ticket,
            "expires_at": expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ticket = d.pop("ticket")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        stream_ticket = cls(
            ticket=ticket,
            expires_at=expires_at,
        )

        return stream_ticket

