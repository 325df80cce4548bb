from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.batch_game import BatchGame
  from ..models.status_counts import StatusCounts





T = TypeVar("T", bound="Batch")



@_attrs_define
class Batch:
    """ 
        Attributes:
            id (str):
            name (None | str):
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            created_at (datetime.datetime):
            ref (None | str): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`), or
                `null`: none.
            starts_at (datetime.datetime | None): The `start_at` the batch was created with (ISO 8601, UTC), or `null` (its
                games started when created).
            finished (bool): True once every game is over (finished or cancelled).
            status_counts (StatusCounts): How many games have each status (a status a later server adds appears as one more
                key).
            games (list[BatchGame]):
     """

    id: str
    name: None | str
    type_: GameTypeId
    created_at: datetime.datetime
    ref: None | str
    starts_at: datetime.datetime | None
    finished: bool
    status_counts: StatusCounts
    games: list[BatchGame]





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_game import BatchGame # noqa: PLC0415
        from ..models.status_counts import StatusCounts # noqa: PLC0415
        id = self.id

        name: None | str
        name = self.name

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        ref: None | str
        ref = self.ref

        starts_at: None | str
        if isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

        finished = self.finished

        status_counts = self.status_counts.to_dict()

        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "name": name,
            "type": type_,
            "created_at": created_at,
            "ref": ref,
            "starts_at": starts_at,
            "finished": finished,
            "status_counts": status_counts,
            "games": games,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_game import BatchGame # noqa: PLC0415
        from ..models.status_counts import StatusCounts # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        type_ = GameTypeId(d.pop("type"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        def _parse_starts_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_batch_starts_at_type_0 = datetime.datetime.fromisoformat(data)



                return componentsschemas_batch_starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        starts_at = _parse_starts_at(d.pop("starts_at"))


        finished = d.pop("finished")

        status_counts = StatusCounts.from_dict(d.pop("status_counts"))




        games = []
        _games = d.pop("games")
        for games_item_data in (_games):
            games_item = BatchGame.from_dict(games_item_data)



            games.append(games_item)


        batch = cls(
            id=id,
            name=name,
            type_=type_,
            created_at=created_at,
            ref=ref,
            starts_at=starts_at,
            finished=finished,
            status_counts=status_counts,
            games=games,
        )

        return batch

