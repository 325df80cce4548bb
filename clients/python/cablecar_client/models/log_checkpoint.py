from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="LogCheckpoint")



@_attrs_define
class LogCheckpoint:
    """ A signed checkpoint of the transparency log.

        Attributes:
            origin (str): The log's origin (`CABLECAR_LOG_ORIGIN`), the checkpoint's first line and its key's name. Example:
                games.example.org/log.
            tree_size (int):  Example: 4211.
            root_hash (str): The tree's root hash (32 bytes), standard base64. Example:
                3mDFY1BDRhNahXnRzlAiMW7B3Ao+rDThs4LIu2WfZ0Y=.
            note (str): The C2SP signed note of the C2SP tlog-checkpoint body. Example: games.example.org/log
                4211
                3mDFY1BDRhNahXnRzlAiMW7B3Ao+rDThs4LIu2WfZ0Y=

                — games.example.org/log AbCdEf...
                .
            key_id (str): The id of the key that signed it (as `GET /v1/keys` lists it). Example: q2b7Yh0c3JQx9mFa.
     """

    origin: str
    tree_size: int
    root_hash: str
    note: str
    key_id: str





    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        tree_size = self.tree_size

        root_hash = self.root_hash

        note = self.note

        key_id = self.key_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "origin": origin,
            "tree_size": tree_size,
            "root_hash": root_hash,
            "note": note,
            "key_id": key_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        origin = d.pop("origin")

        tree_size = d.pop("tree_size")

        root_hash = d.pop("root_hash")

        note = d.pop("note")

        key_id = d.pop("key_id")

        log_checkpoint = cls(
            origin=origin,
            tree_size=tree_size,
            root_hash=root_hash,
            note=note,
            key_id=key_id,
        )

        return log_checkpoint

