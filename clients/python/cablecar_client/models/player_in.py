from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PlayerIn")



@_attrs_define
class PlayerIn:
    """ 
        Attributes:
            name (str): Trimmed of surrounding white space, then 1 to 40 characters with no control or format characters
                (no bidi overrides or isolates, U+202A–U+202E and U+2066–U+2069, no zero-width characters). Stored in
                Unicode NFKC form (fullwidth `Ａｄａ` is `Ada`); no blank-looking character (the Hangul fillers
                U+115F, U+1160, U+3164, U+FFA0, the blank Braille pattern U+2800, variation selectors, spaces other
                than U+0020) and at least one visible one. The names of one game must differ, ignoring case and
                look-alike characters (Unicode TR39 skeletons: Cyrillic `Аda` looks like `Ada`). A name breaking a
                rule is `400 invalid_request` naming the field, e.g. `players.1.name`.
     """

    name: str





    def to_dict(self) -> dict[str, Any]:
        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        player_in = cls(
            name=name,
        )

        return player_in

