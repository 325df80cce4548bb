from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Tram")



@_attrs_define
class Tram:
    """ A tram's position; on a terminal loop, `row`/`col` is the path square next to the loop.

        Attributes:
            row (int):
            col (int):
            space (int): Index into the ride's `spaces`.
            terminal (None | str): The terminal loop the tram stands on, if any.
     """

    row: int
    col: int
    space: int
    terminal: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        row = self.row

        col = self.col

        space = self.space

        terminal: None | str
        terminal = self.terminal


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "row": row,
            "col": col,
            "space": space,
            "terminal": terminal,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        row = d.pop("row")

        col = d.pop("col")

        space = d.pop("space")

        def _parse_terminal(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        terminal = _parse_terminal(d.pop("terminal"))


        tram = cls(
            row=row,
            col=col,
            space=space,
            terminal=terminal,
        )


        tram.additional_properties = d
        return tram

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
