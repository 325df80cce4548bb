from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="ExportSeed")



@_attrs_define
class ExportSeed:
    """ 
        Attributes:
            value (str): The seed of every shuffle and roll (the deal seed the commitment covers).
            salt (str):
            commitment (str): `sha256(salt + ":" + seed)` in hexadecimal; the seed and salt are revealed by the export.
            source (str): Whether the caller sent a seed (`caller`) or not (`server`); open.
            open_deal (bool): True when the caller's seed alone made the deal (anyone who knows it knows every hand); false
                when a server secret, committed at creation and revealed by the export, was mixed in.
            caller_seed (None | str): The seed the caller sent, if any.
            server_secret (None | str): The server's random secret (null in an open deal): `value` is this secret alone, or
                `sha256(server_secret + ":" + caller_seed)` with a caller seed.
            commitment_scheme (Literal["sha256(salt + ':' + seed)"]):
            derivation (str): How `value` is derived from `server_secret` and `caller_seed`, in words.
            rng (str): The random-number algorithm fed by the seed.
     """

    value: str
    salt: str
    commitment: str
    source: str
    open_deal: bool
    caller_seed: None | str
    server_secret: None | str
    commitment_scheme: Literal["sha256(salt + ':' + seed)"]
    derivation: str
    rng: str





    def to_dict(self) -> dict[str, Any]:
        value = self.value

        salt = self.salt

        commitment = self.commitment

        source = self.source

        open_deal = self.open_deal

        caller_seed: None | str
        caller_seed = self.caller_seed

        server_secret: None | str
        server_secret = self.server_secret

        commitment_scheme = self.commitment_scheme

        derivation = self.derivation

        rng = self.rng


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "value": value,
            "salt": salt,
            "commitment": commitment,
            "source": source,
            "open_deal": open_deal,
            "caller_seed": caller_seed,
            "server_secret": server_secret,
            "commitment_scheme": commitment_scheme,
            "derivation": derivation,
            "rng": rng,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        value = d.pop("value")

        salt = d.pop("salt")

        commitment = d.pop("commitment")

        source = d.pop("source")

        open_deal = d.pop("open_deal")

        def _parse_caller_seed(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        caller_seed = _parse_caller_seed(d.pop("caller_seed"))


        def _parse_server_secret(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        server_secret = _parse_server_secret(d.pop("server_secret"))


        commitment_scheme = cast(Literal["sha256(salt + ':' + seed)"] , d.pop("commitment_scheme"))
        if commitment_scheme != "sha256(salt + ':' + seed)":
            raise ValueError(f"commitment_scheme must match const \"sha256(salt + ':' + seed)\", got '{commitment_scheme}'")

        derivation = d.pop("derivation")

        rng = d.pop("rng")

        export_seed = cls(
            value=value,
            salt=salt,
            commitment=commitment,
            source=source,
            open_deal=open_deal,
            caller_seed=caller_seed,
            server_secret=server_secret,
            commitment_scheme=commitment_scheme,
            derivation=derivation,
            rng=rng,
        )

        return export_seed

