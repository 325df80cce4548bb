from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="ClockTimeControl")



@_attrs_define
class ClockTimeControl:
    """ A chess clock per seat: the bank starts at `initial_seconds`, drains while the seat is active and gains
    `increment_seconds` for every turn the seat completes. With `setup_seconds` the setup steps (ttr-sf) use
    that separate allowance and leave the bank alone; without it they drain the bank.

        Attributes:
            kind (Literal['clock']):
            initial_seconds (int): Each seat's bank at the start (1 s to 7 days).
            increment_seconds (int | Unset): Added to the bank for every completed turn (0 s to 7 days; omitted: 0).
            setup_seconds (int | Unset): A separate allowance for each seat's setup steps (1 s to 7 days); without it they
                drain the bank.
     """

    kind: Literal['clock']
    initial_seconds: int
    increment_seconds: int | Unset = UNSET
    setup_seconds: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        initial_seconds = self.initial_seconds

        increment_seconds = self.increment_seconds

        setup_seconds = self.setup_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "initial_seconds": initial_seconds,
        })
        if increment_seconds is not UNSET:
            field_dict["increment_seconds"] = increment_seconds
        if setup_seconds is not UNSET:
            field_dict["setup_seconds"] = setup_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal['clock'] , d.pop("kind"))
        if kind != 'clock':
            raise ValueError(f"kind must match const 'clock', got '{kind}'")

        initial_seconds = d.pop("initial_seconds")

        increment_seconds = d.pop("increment_seconds", UNSET)

        setup_seconds = d.pop("setup_seconds", UNSET)

        clock_time_control = cls(
            kind=kind,
            initial_seconds=initial_seconds,
            increment_seconds=increment_seconds,
            setup_seconds=setup_seconds,
        )

        return clock_time_control

