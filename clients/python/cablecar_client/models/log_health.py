from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="LogHealth")



@_attrs_define
class LogHealth:
    """ How current the transparency log is: the latest checkpoint a client is served (`GET /v1/log/checkpoint`), its tree
    size and age. `ok` is false when that checkpoint is more than 60 s old while events wait to be logged (a checkpoint
    is published at least every 10 s while events are appended): the server's status is then `degraded`.

        Attributes:
            ok (bool):
            checkpoint_age_s (float | None): Seconds since the latest checkpoint was published (by the database's clock);
                null before the first.
            tree_size (int): The latest checkpoint's tree size (0 before the first).
            detail (str):
     """

    ok: bool
    checkpoint_age_s: float | None
    tree_size: int
    detail: str





    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        checkpoint_age_s: float | None
        checkpoint_age_s = self.checkpoint_age_s

        tree_size = self.tree_size

        detail = self.detail


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "checkpoint_age_s": checkpoint_age_s,
            "tree_size": tree_size,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ok = d.pop("ok")

        def _parse_checkpoint_age_s(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        checkpoint_age_s = _parse_checkpoint_age_s(d.pop("checkpoint_age_s"))


        tree_size = d.pop("tree_size")

        detail = d.pop("detail")

        log_health = cls(
            ok=ok,
            checkpoint_age_s=checkpoint_age_s,
            tree_size=tree_size,
            detail=detail,
        )

        return log_health

