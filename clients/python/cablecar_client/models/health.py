from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.component_health import ComponentHealth





T = TypeVar("T", bound="Health")



@_attrs_define
class Health:
    """ 
        Attributes:
            status (str): `ok`, `degraded` (the cache is down) or `unavailable` (the event store is down). Open.
            store (ComponentHealth):
            cache (ComponentHealth):
            version (str): The server's version.
     """

    status: str
    store: ComponentHealth
    cache: ComponentHealth
    version: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.component_health import ComponentHealth # noqa: PLC0415
        status = self.status

        store = self.store.to_dict()

        cache = self.cache.to_dict()

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "status": status,
            "store": store,
            "cache": cache,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.component_health import ComponentHealth # noqa: PLC0415
        d = dict(src_dict)
        status = d.pop("status")

        store = ComponentHealth.from_dict(d.pop("store"))




        cache = ComponentHealth.from_dict(d.pop("cache"))




        version = d.pop("version")

        health = cls(
            status=status,
            store=store,
            cache=cache,
            version=version,
        )

        return health

