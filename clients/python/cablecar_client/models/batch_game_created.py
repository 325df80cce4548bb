from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.seat_token import SeatToken





T = TypeVar("T", bound="BatchGameCreated")



@_attrs_define
class BatchGameCreated:
    """ 
        Attributes:
            table (int):
            id (str):
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            version (int):
            seed_commitment (str): `sha256(salt + ":" + seed)` in hexadecimal; the seed and salt are revealed by the export.
            seed_source (str): Whether the caller sent a seed (`caller`) or not (`server`); open.
            open_deal (bool): True when the caller's seed alone made the deal (anyone who knows it knows every hand); false
                when a server secret, committed at creation and revealed by the export, was mixed in.
            seats (list[SeatToken]):
            host_token (str):
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
            starts_at (datetime.datetime | None | Unset): When the game starts, for a scheduled round (`status` is then
                `scheduled`); else `null`.
     """

    table: int
    id: str
    status: str
    version: int
    seed_commitment: str
    seed_source: str
    open_deal: bool
    seats: list[SeatToken]
    host_token: str
    ref: None | str | Unset = UNSET
    starts_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_token import SeatToken # noqa: PLC0415
        table = self.table

        id = self.id

        status = self.status

        version = self.version

        seed_commitment = self.seed_commitment

        seed_source = self.seed_source

        open_deal = self.open_deal

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)



        host_token = self.host_token

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref

        starts_at: None | str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        elif isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "table": table,
            "id": id,
            "status": status,
            "version": version,
            "seed_commitment": seed_commitment,
            "seed_source": seed_source,
            "open_deal": open_deal,
            "seats": seats,
            "host_token": host_token,
        })
        if ref is not UNSET:
            field_dict["ref"] = ref
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_token import SeatToken # noqa: PLC0415
        d = dict(src_dict)
        table = d.pop("table")

        id = d.pop("id")

        status = d.pop("status")

        version = d.pop("version")

        seed_commitment = d.pop("seed_commitment")

        seed_source = d.pop("seed_source")

        open_deal = d.pop("open_deal")

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in (_seats):
            seats_item = SeatToken.from_dict(seats_item_data)



            seats.append(seats_item)


        host_token = d.pop("host_token")

        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        def _parse_starts_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_at_type_0 = datetime.datetime.fromisoformat(data)



                return starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_at = _parse_starts_at(d.pop("starts_at", UNSET))


        batch_game_created = cls(
            table=table,
            id=id,
            status=status,
            version=version,
            seed_commitment=seed_commitment,
            seed_source=seed_source,
            open_deal=open_deal,
            seats=seats,
            host_token=host_token,
            ref=ref,
            starts_at=starts_at,
        )

        return batch_game_created

