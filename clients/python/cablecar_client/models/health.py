from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.bots_health import BotsHealth
  from ..models.component_health import ComponentHealth
  from ..models.log_health import LogHealth





T = TypeVar("T", bound="Health")



@_attrs_define
class Health:
    """ 
        Attributes:
            status (str): `ok`, `degraded` (the cache is down, or the transparency log is not being published: `log.ok`
                false) or `unavailable` (the event store is down). Open.
            store (ComponentHealth):
            cache (ComponentHealth):
            bots (BotsHealth): The bot runners playing the server's bot seats: how many are alive now (each keeps a
                heartbeat in the store). With none (`ok` false) a new game with a bot seat is refused (`503 bots_unavailable`);
                the server is not down for it, so the health stays 200.
            log (LogHealth): How current the transparency log is: the latest checkpoint a client is served (`GET
                /v1/log/checkpoint`), its tree size and age. `ok` is false when that checkpoint is more than 60 s old while
                events wait to be logged (a checkpoint is published at least every 10 s while events are appended): the server's
                status is then `degraded`.
            version (str): The server's version.
     """

    status: str
    store: ComponentHealth
    cache: ComponentHealth
    bots: BotsHealth
    log: LogHealth
    version: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.bots_health import BotsHealth # noqa: PLC0415
        from ..models.component_health import ComponentHealth # noqa: PLC0415
        from ..models.log_health import LogHealth # noqa: PLC0415
        status = self.status

        store = self.store.to_dict()

        cache = self.cache.to_dict()

        bots = self.bots.to_dict()

        log = self.log.to_dict()

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "status": status,
            "store": store,
            "cache": cache,
            "bots": bots,
            "log": log,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bots_health import BotsHealth # noqa: PLC0415
        from ..models.component_health import ComponentHealth # noqa: PLC0415
        from ..models.log_health import LogHealth # noqa: PLC0415
        d = dict(src_dict)
        status = d.pop("status")

        store = ComponentHealth.from_dict(d.pop("store"))




        cache = ComponentHealth.from_dict(d.pop("cache"))




        bots = BotsHealth.from_dict(d.pop("bots"))




        log = LogHealth.from_dict(d.pop("log"))




        version = d.pop("version")

        health = cls(
            status=status,
            store=store,
            cache=cache,
            bots=bots,
            log=log,
            version=version,
        )

        return health

