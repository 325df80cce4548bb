from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="LogConsistency")



@_attrs_define
class LogConsistency:
    """ 
        Example:
            {'first': 4000, 'second': 4211, 'proof': ['3mDFY1BDRhNahXnRzlAiMW7B3Ao+rDThs4LIu2WfZ0Y=']}

        Attributes:
            first (int):
            second (int):
            proof (list[str]):
     """

    first: int
    second: int
    proof: list[str]





    def to_dict(self) -> dict[str, Any]:
        first = self.first

        second = self.second

        proof = self.proof




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "first": first,
            "second": second,
            "proof": proof,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first = d.pop("first")

        second = d.pop("second")

        proof = cast(list[str], d.pop("proof"))


        log_consistency = cls(
            first=first,
            second=second,
            proof=proof,
        )

        return log_consistency

