from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="LogInclusion")



@_attrs_define
class LogInclusion:
    """ 
        Example:
            {'tree_size': 4211, 'leaf_index': 4100, 'seq': 87, 'proof': ['3mDFY1BDRhNahXnRzlAiMW7B3Ao+rDThs4LIu2WfZ0Y=']}

        Attributes:
            tree_size (int):
            leaf_index (int):
            seq (int): The game's last event, whose leaf this proves.
            proof (list[str]):
     """

    tree_size: int
    leaf_index: int
    seq: int
    proof: list[str]





    def to_dict(self) -> dict[str, Any]:
        tree_size = self.tree_size

        leaf_index = self.leaf_index

        seq = self.seq

        proof = self.proof




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "tree_size": tree_size,
            "leaf_index": leaf_index,
            "seq": seq,
            "proof": proof,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tree_size = d.pop("tree_size")

        leaf_index = d.pop("leaf_index")

        seq = d.pop("seq")

        proof = cast(list[str], d.pop("proof"))


        log_inclusion = cls(
            tree_size=tree_size,
            leaf_index=leaf_index,
            seq=seq,
            proof=proof,
        )

        return log_inclusion

