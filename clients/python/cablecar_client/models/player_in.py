from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






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
            bot (None | str | Unset): A server-side bot plays this seat: one of the type's `bots` in `GET /v1/game-types`.
                Its seat gets no
                token; the server's bot runners play its turns from that seat's own view, within the time control.
                A bot the type does not have is `422 invalid_config` with `reason` `unknown_bot`, and nothing is created.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player): 1 to 128 printable
                characters (no control,
                format or separator characters but the space), returned unchanged wherever the thing appears; `null` (or
                omitted): none. Never secret, never changed. A bad ref is `400 invalid_request` naming the field (e.g.
                `tables.1.players.0.ref`), and nothing is created.
     """

    name: str
    bot: None | str | Unset = UNSET
    ref: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        bot: None | str | Unset
        if isinstance(self.bot, Unset):
            bot = UNSET
        else:
            bot = self.bot

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if bot is not UNSET:
            field_dict["bot"] = bot
        if ref is not UNSET:
            field_dict["ref"] = ref

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_bot(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bot = _parse_bot(d.pop("bot", UNSET))


        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        player_in = cls(
            name=name,
            bot=bot,
            ref=ref,
        )

        return player_in

