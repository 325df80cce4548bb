from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.keep_tickets_type import KeepTicketsType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="KeepTickets")



@_attrs_define
class KeepTickets:
    """ `ttr-sf`: keep these of the pending tickets (at setup, or after `draw_tickets`); the others are returned.

        Attributes:
            type_ (KeepTicketsType): The action name `keep_tickets` (a one-value `enum` in a schema of its own, so that
                generators which ignore `const` still tell the action bodies apart by `type`).
            tickets (list[str]):
            expected_version (int | None | Unset): Refuse the action with `409 stale_version` unless the game is at exactly
                this version.
     """

    type_: KeepTicketsType
    tickets: list[str]
    expected_version: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        tickets = self.tickets



        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "tickets": tickets,
        })
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = KeepTicketsType(d.pop("type"))




        tickets = cast(list[str], d.pop("tickets"))


        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))


        keep_tickets = cls(
            type_=type_,
            tickets=tickets,
            expected_version=expected_version,
        )

        return keep_tickets

