from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="PerTurnTimeControl")



@_attrs_define
class PerTurnTimeControl:
    """ Each turn must be finished within `seconds`; the setup steps (ttr-sf) within `setup_seconds`, by default
    `seconds`. A seat whose turn is not running always has a whole turn ahead.

        Attributes:
            kind (Literal['per_turn']):
            seconds (int): Seconds per turn (1 s to 7 days).
            setup_seconds (int | Unset): Seconds for each seat's setup steps (1 s to 7 days); default `seconds`.
     """

    kind: Literal['per_turn']
    seconds: int
    setup_seconds: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        seconds = self.seconds

        setup_seconds = self.setup_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "seconds": seconds,
        })
        if setup_seconds is not UNSET:
            field_dict["setup_seconds"] = setup_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal['per_turn'] , d.pop("kind"))
        if kind != 'per_turn':
            raise ValueError(f"kind must match const 'per_turn', got '{kind}'")

        seconds = d.pop("seconds")

        setup_seconds = d.pop("setup_seconds", UNSET)

        per_turn_time_control = cls(
            kind=kind,
            seconds=seconds,
            setup_seconds=setup_seconds,
        )

        return per_turn_time_control

