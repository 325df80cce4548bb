from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="AuditCheck")



@_attrs_define
class AuditCheck:
    """ 
        Attributes:
            name (str):
            ok (bool): True when the check was made and passed; never true for a check not made.
            detail (str): What was checked, or what is wrong (event seqs and field names, never secret values).
            checked (bool | Unset): False when the check was not made (its `detail` starts `NOT CHECKED`, and `ok` is
                false): neither
                verified nor failed. True (or absent, from servers before this field) when it was made.
     """

    name: str
    ok: bool
    detail: str
    checked: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        ok = self.ok

        detail = self.detail

        checked = self.checked


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "ok": ok,
            "detail": detail,
        })
        if checked is not UNSET:
            field_dict["checked"] = checked

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        ok = d.pop("ok")

        detail = d.pop("detail")

        checked = d.pop("checked", UNSET)

        audit_check = cls(
            name=name,
            ok=ok,
            detail=detail,
            checked=checked,
        )

        return audit_check

