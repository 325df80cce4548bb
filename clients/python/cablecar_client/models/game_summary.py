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
  from ..models.seat_name import SeatName





T = TypeVar("T", bound="GameSummary")



@_attrs_define
class GameSummary:
    """ 
        Attributes:
            id (str):
            type_ (str):
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            version (int):
            created_at (datetime.datetime): When the game was created (ISO 8601, UTC).
            updated_at (datetime.datetime): When the last event was written (ISO 8601, UTC).
            players (list[SeatName]):
            seed_commitment (str):
            open_deal (bool): True when the caller's seed alone made the deal (anyone who knows it knows every hand); false
                when a server secret, committed at creation and revealed by the export, was mixed in.
            batch (None | str): The batch the game belongs to, if any.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
            batch_ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see
                `Ref`), or `null`: none.
            starts_at (datetime.datetime | None | Unset): When a scheduled game starts (ISO 8601, UTC), while it waits
                (`status` `scheduled`); otherwise absent from
                a view and `null` in the listing.
            damaged_from (int | Unset): Only for a damaged game (its stored record fails its chain or signature check from
                this event on): the
                seq of the first bad event. What is shown is the game up to the event before it (`version`); every
                action or write answers `409 game_damaged` until an operator moves the bad events aside (`cablecar
                quarantine`, recorded as an `events_quarantined` event), which is possible only for events no published
                checkpoint of the transparency log holds. Absent for a sound game.
     """

    id: str
    type_: str
    status: str
    version: int
    created_at: datetime.datetime
    updated_at: datetime.datetime
    players: list[SeatName]
    seed_commitment: str
    open_deal: bool
    batch: None | str
    ref: None | str | Unset = UNSET
    batch_ref: None | str | Unset = UNSET
    starts_at: datetime.datetime | None | Unset = UNSET
    damaged_from: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_name import SeatName # noqa: PLC0415
        id = self.id

        type_ = self.type_

        status = self.status

        version = self.version

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        seed_commitment = self.seed_commitment

        open_deal = self.open_deal

        batch: None | str
        batch = self.batch

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref

        batch_ref: None | str | Unset
        if isinstance(self.batch_ref, Unset):
            batch_ref = UNSET
        else:
            batch_ref = self.batch_ref

        starts_at: None | str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        elif isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
            "status": status,
            "version": version,
            "created_at": created_at,
            "updated_at": updated_at,
            "players": players,
            "seed_commitment": seed_commitment,
            "open_deal": open_deal,
            "batch": batch,
        })
        if ref is not UNSET:
            field_dict["ref"] = ref
        if batch_ref is not UNSET:
            field_dict["batch_ref"] = batch_ref
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_name import SeatName # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        status = d.pop("status")

        version = d.pop("version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = SeatName.from_dict(players_item_data)



            players.append(players_item)


        seed_commitment = d.pop("seed_commitment")

        open_deal = d.pop("open_deal")

        def _parse_batch(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        batch = _parse_batch(d.pop("batch"))


        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        def _parse_batch_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        batch_ref = _parse_batch_ref(d.pop("batch_ref", UNSET))


        def _parse_starts_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_starts_at_type_0 = datetime.datetime.fromisoformat(data)



                return componentsschemas_starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_at = _parse_starts_at(d.pop("starts_at", UNSET))


        damaged_from = d.pop("damaged_from", UNSET)

        game_summary = cls(
            id=id,
            type_=type_,
            status=status,
            version=version,
            created_at=created_at,
            updated_at=updated_at,
            players=players,
            seed_commitment=seed_commitment,
            open_deal=open_deal,
            batch=batch,
            ref=ref,
            batch_ref=batch_ref,
            starts_at=starts_at,
            damaged_from=damaged_from,
        )

        return game_summary

