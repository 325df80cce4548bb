from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.signing_key_algorithm import SigningKeyAlgorithm
from typing import cast
import datetime






T = TypeVar("T", bound="SigningKey")



@_attrs_define
class SigningKey:
    """ 
        Attributes:
            key_id (str): First 16 characters of base64url(SHA-256(raw public key)).
            algorithm (SigningKeyAlgorithm):
            public_key (str): The raw 32-byte Ed25519 public key, base64url without padding.
            created_at (datetime.datetime | None):
            retired_at (datetime.datetime | None): When the key stopped signing (`null` for the current key).
            added_seq (int | None): The seq of the key's `key_added` event in the server's own stream (game id `_server`),
                which records
                every key's lifetime and is a leaf of the transparency log like any event (`null` until recorded).
            retired_seq (int | None): The seq of the key's `key_retired` event in the server's own stream (`null` for a key
                not retired).
            retired_tree_size (int | None): The size of the log's tree whose last leaf is the key's `key_retired` event
                (`null` until the log holds it):
                checkpoints carry no time, so a checkpoint this key signs counts only for a tree no larger than this;
                `cablecar verify --checkpoint` and `cablecar log` refuse a note it signs of a larger tree.
     """

    key_id: str
    algorithm: SigningKeyAlgorithm
    public_key: str
    created_at: datetime.datetime | None
    retired_at: datetime.datetime | None
    added_seq: int | None
    retired_seq: int | None
    retired_tree_size: int | None





    def to_dict(self) -> dict[str, Any]:
        key_id = self.key_id

        algorithm = self.algorithm.value

        public_key = self.public_key

        created_at: None | str
        if isinstance(self.created_at, datetime.datetime):
            created_at = self.created_at.isoformat()
        else:
            created_at = self.created_at

        retired_at: None | str
        if isinstance(self.retired_at, datetime.datetime):
            retired_at = self.retired_at.isoformat()
        else:
            retired_at = self.retired_at

        added_seq: int | None
        added_seq = self.added_seq

        retired_seq: int | None
        retired_seq = self.retired_seq

        retired_tree_size: int | None
        retired_tree_size = self.retired_tree_size


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "key_id": key_id,
            "algorithm": algorithm,
            "public_key": public_key,
            "created_at": created_at,
            "retired_at": retired_at,
            "added_seq": added_seq,
            "retired_seq": retired_seq,
            "retired_tree_size": retired_tree_size,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key_id = d.pop("key_id")

        algorithm = SigningKeyAlgorithm(d.pop("algorithm"))




        public_key = d.pop("public_key")

        def _parse_created_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                created_at_type_0 = datetime.datetime.fromisoformat(data)



                return created_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        created_at = _parse_created_at(d.pop("created_at"))


        def _parse_retired_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                retired_at_type_0 = datetime.datetime.fromisoformat(data)



                return retired_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        retired_at = _parse_retired_at(d.pop("retired_at"))


        def _parse_added_seq(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        added_seq = _parse_added_seq(d.pop("added_seq"))


        def _parse_retired_seq(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        retired_seq = _parse_retired_seq(d.pop("retired_seq"))


        def _parse_retired_tree_size(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        retired_tree_size = _parse_retired_tree_size(d.pop("retired_tree_size"))


        signing_key = cls(
            key_id=key_id,
            algorithm=algorithm,
            public_key=public_key,
            created_at=created_at,
            retired_at=retired_at,
            added_seq=added_seq,
            retired_seq=retired_seq,
            retired_tree_size=retired_tree_size,
        )

        return signing_key

