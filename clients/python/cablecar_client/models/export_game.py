from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.game_type_id import GameTypeId
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ExportGame")



@_attrs_define
class ExportGame:
    """ The game's header. `ref`, `batch_ref`, `player_refs` and `starts_at` appear only where given (older
    records and games without refs export as before). Like `batch`, they are facts of the game's row, fixed by
    the database from its creation on, but outside the signed hash chain: `cablecar verify` does not judge
    them. The scheduled wait itself is in the chain (`game_scheduled` with `starts_at`, then `game_started`),
    and verify checks that no seat acted and no clock ran in between.

        Attributes:
            id (str):
            type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the cable-car tile game
                (2–6 players).
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            version (int):
            created_at (datetime.datetime):
            players (list[str]): Player names in seat order.
            start_seat (int): A seat number, 0-based, in turn order.
            rules_version (str):
            board_version (str):
            batch (None | str):
            bots (list[None | str] | Unset): Per seat, the server-side bot that played it, or `null` for a person (absent in
                older records).
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
            batch_ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see
                `Ref`), or `null`: none.
            player_refs (list[None | str] | Unset): Per seat, the player's ref or `null`.
            starts_at (datetime.datetime | Unset): When the game was scheduled to start (a scheduled round only).
     """

    id: str
    type_: GameTypeId
    status: str
    version: int
    created_at: datetime.datetime
    players: list[str]
    start_seat: int
    rules_version: str
    board_version: str
    batch: None | str
    bots: list[None | str] | Unset = UNSET
    ref: None | str | Unset = UNSET
    batch_ref: None | str | Unset = UNSET
    player_refs: list[None | str] | Unset = UNSET
    starts_at: datetime.datetime | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        status = self.status

        version = self.version

        created_at = self.created_at.isoformat()

        players = self.players



        start_seat = self.start_seat

        rules_version = self.rules_version

        board_version = self.board_version

        batch: None | str
        batch = self.batch

        bots: list[None | str] | Unset = UNSET
        if not isinstance(self.bots, Unset):
            bots = []
            for bots_item_data in self.bots:
                bots_item: None | str
                bots_item = bots_item_data
                bots.append(bots_item)



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

        player_refs: list[None | str] | Unset = UNSET
        if not isinstance(self.player_refs, Unset):
            player_refs = []
            for player_refs_item_data in self.player_refs:
                player_refs_item: None | str
                player_refs_item = player_refs_item_data
                player_refs.append(player_refs_item)



        starts_at: str | Unset = UNSET
        if not isinstance(self.starts_at, Unset):
            starts_at = self.starts_at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "type": type_,
            "status": status,
            "version": version,
            "created_at": created_at,
            "players": players,
            "start_seat": start_seat,
            "rules_version": rules_version,
            "board_version": board_version,
            "batch": batch,
        })
        if bots is not UNSET:
            field_dict["bots"] = bots
        if ref is not UNSET:
            field_dict["ref"] = ref
        if batch_ref is not UNSET:
            field_dict["batch_ref"] = batch_ref
        if player_refs is not UNSET:
            field_dict["player_refs"] = player_refs
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = GameTypeId(d.pop("type"))




        status = d.pop("status")

        version = d.pop("version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        players = cast(list[str], d.pop("players"))


        start_seat = d.pop("start_seat")

        rules_version = d.pop("rules_version")

        board_version = d.pop("board_version")

        def _parse_batch(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        batch = _parse_batch(d.pop("batch"))


        _bots = d.pop("bots", UNSET)
        bots: list[None | str] | Unset = UNSET
        if _bots is not UNSET:
            bots = []
            for bots_item_data in _bots:
                def _parse_bots_item(data: object) -> None | str:
                    if data is None:
                        return data
                    return cast(None | str, data)

                bots_item = _parse_bots_item(bots_item_data)

                bots.append(bots_item)


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


        _player_refs = d.pop("player_refs", UNSET)
        player_refs: list[None | str] | Unset = UNSET
        if _player_refs is not UNSET:
            player_refs = []
            for player_refs_item_data in _player_refs:
                def _parse_player_refs_item(data: object) -> None | str:
                    if data is None:
                        return data
                    return cast(None | str, data)

                player_refs_item = _parse_player_refs_item(player_refs_item_data)

                player_refs.append(player_refs_item)


        _starts_at = d.pop("starts_at", UNSET)
        starts_at: datetime.datetime | Unset
        if isinstance(_starts_at,  Unset):
            starts_at = UNSET
        else:
            starts_at = datetime.datetime.fromisoformat(_starts_at)




        export_game = cls(
            id=id,
            type_=type_,
            status=status,
            version=version,
            created_at=created_at,
            players=players,
            start_seat=start_seat,
            rules_version=rules_version,
            board_version=board_version,
            batch=batch,
            bots=bots,
            ref=ref,
            batch_ref=batch_ref,
            player_refs=player_refs,
            starts_at=starts_at,
        )

        return export_game

