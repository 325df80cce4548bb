from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ComponentHealth")



@_attrs_define
class ComponentHealth:
    """ 
        Attributes:
            backend (str): The implementation in use (the store class, e.g. `SqliteStore`; the cache, `in-process` or
                `redis`).
            ok (bool):
            detail (str):
     """

    backend: str
    ok: bool
    detail: str





    def to_dict(self) -> dict[str, Any]:
        backend = self.backend

        ok = self.ok

        detail = self.detail


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "backend": backend,
            "ok": ok,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        backend = d.pop("backend")

        ok = d.pop("ok")

        detail = d.pop("detail")

        component_health = cls(
            backend=backend,
            ok=ok,
            detail=detail,
        )

        return component_health

