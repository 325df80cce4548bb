from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="StatusCounts")



@_attrs_define
class StatusCounts:
    """ How many games have each status (a status a later server adds appears as one more key).

        Attributes:
            setup (int):
            playing (int):
            last_round (int):
            finished (int):
            cancelled (int):
            scheduled (int | Unset):
     """

    setup: int
    playing: int
    last_round: int
    finished: int
    cancelled: int
    scheduled: int | Unset = UNSET
    additional_properties: dict[str, int] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        setup = self.setup

        playing = self.playing

        last_round = self.last_round

        finished = self.finished

        cancelled = self.cancelled

        scheduled = self.scheduled


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "setup": setup,
            "playing": playing,
            "last_round": last_round,
            "finished": finished,
            "cancelled": cancelled,
        })
        if scheduled is not UNSET:
            field_dict["scheduled"] = scheduled

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        setup = d.pop("setup")

        playing = d.pop("playing")

        last_round = d.pop("last_round")

        finished = d.pop("finished")

        cancelled = d.pop("cancelled")

        scheduled = d.pop("scheduled", UNSET)

        status_counts = cls(
            setup=setup,
            playing=playing,
            last_round=last_round,
            finished=finished,
            cancelled=cancelled,
            scheduled=scheduled,
        )


        status_counts.additional_properties = d
        return status_counts

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> int:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: int) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
