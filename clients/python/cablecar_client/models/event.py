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
  from ..models.event_payload import EventPayload





T = TypeVar("T", bound="Event")



@_attrs_define
class Event:
    """ One event of the log. `payload` depends on `type` (and `schema_version`); secrets of other seats are `null`
    until the game is finished. `prev_hash` and `hash` (the hash chain) and `signature` are shown once the game
    is finished (a hash or a signature over a redacted secret would confirm a guessed value); `key_id` always.

    `ttr-sf` event types: `game_set_up`, `cards_dealt`, `tickets_dealt`, `face_up_refilled`, `face_up_reset`,
    `deck_rebuilt`, `souvenir_stack_placed`, `tickets_kept`, `play_started`, `card_drawn`, `route_claimed`,
    `tickets_drawn`, `turn_ended`, `turn_passed`, `last_round_started`, `game_ended`. `cable-car` event types:
    `game_set_up`, `tiles_laid`, `tiles_drawn` (an automatic draw), `tile_drawn` (a chosen `draw_tile`:
    `{seat, source, rider, tile}`), `turn_passed`, `turn_ended`, `ride_started`, `die_rolled`, `game_ended`.

    Each game records the rules version it was created under (`rules_version`: `ttr-sf/4`, `cable-car/4`); a
    game created under an earlier version (`ttr-sf/1` to `ttr-sf/3`, `cable-car/1` to `cable-car/3`) is still
    decided and verified under the rules it was played by.

    **A turn's end.** Since `ttr-sf/3` and `cable-car/3` the event a move ends with says when the move ended the
    seat's turn: `ends_turn: true` in its payload, instead of a `turn_ended` event after it. Clients treat such
    an event as the event followed by `turn_ended` (in `cable-car`, the next seat is the next seat still in).
    The events that carry the field are, in `ttr-sf`, `card_drawn`, `route_claimed`, `tickets_kept`,
    `face_up_refilled` and `deck_rebuilt`, and in `cable-car`, `tiles_laid`, `tiles_drawn`, `tile_drawn` and
    `die_rolled` (each one `schema_version` higher than before, with `ends_turn: false` otherwise). A turn
    ended otherwise (by a forfeit, or a seat passing automatically) still ends with `turn_ended`, as does every
    turn of a game created under an earlier version (their stored events are listed with `ends_turn: false`,
    and exported exactly as stored).

    Both game types also have `seat_resigned` (`{"seat": n}`, written by the resigning seat's `resign`),
    `seat_timed_out` (`{"seat": n}`, appended by the server when that seat's deadline passed) and
    `game_cancelled` (`{}`, the host's cancel); the events that follow a forfeit in the same write (default
    setup choices, the turn passed on, `game_ended` with reason `forfeit`) carry the same envelope `seat`. The
    `game_set_up` payload has `time_control` (as created) when the game is timed, and no such field otherwise.

        Attributes:
            seq (int): Position in the game's log (1, 2, 3, … without gaps); the game's version after this event.
            type_ (str):
            schema_version (int):
            seat (int | None): The seat whose action wrote the event; `null` for events written at creation and for those
                the server
                or the host wrote (`seat_timed_out` and what follows it, `game_cancelled`).
            recorded_at (datetime.datetime): When the event was written (ISO 8601, UTC).
            payload (EventPayload):
            prev_hash (str | Unset): The `hash` of the previous event (finished games only).
            hash_ (str | Unset): SHA-256 over this event's envelope and `prev_hash` (finished games only).
            signature (str | Unset): The server's Ed25519 signature of the ASCII bytes of `hash`, base64url without padding
                (finished games
                only; absent on events written before the server signed its records). Check it with the key `key_id`
                names in `GET /v1/keys`.
            key_id (str | Unset): The id of the key that signed this event (`GET /v1/keys`); absent on unsigned events.
            version (int | Unset): On event page entries and stream messages (not in an action's answer): the game's version
                when the
                server read this entry, at least `seq` (equal on the newest entry). Not part of the hashed event, nor
                of the export.
            active_seats (list[int] | Unset): With `version`: the seats to act at that version, as the game's view says them
                (empty once the game
                is over), so that a client following the log knows whose turn it is without reading the view. Not
                part of the hashed event.
     """

    seq: int
    type_: str
    schema_version: int
    seat: int | None
    recorded_at: datetime.datetime
    payload: EventPayload
    prev_hash: str | Unset = UNSET
    hash_: str | Unset = UNSET
    signature: str | Unset = UNSET
    key_id: str | Unset = UNSET
    version: int | Unset = UNSET
    active_seats: list[int] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_payload import EventPayload # noqa: PLC0415
        seq = self.seq

        type_ = self.type_

        schema_version = self.schema_version

        seat: int | None
        seat = self.seat

        recorded_at = self.recorded_at.isoformat()

        payload = self.payload.to_dict()

        prev_hash = self.prev_hash

        hash_ = self.hash_

        signature = self.signature

        key_id = self.key_id

        version = self.version

        active_seats: list[int] | Unset = UNSET
        if not isinstance(self.active_seats, Unset):
            active_seats = self.active_seats




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "seq": seq,
            "type": type_,
            "schema_version": schema_version,
            "seat": seat,
            "recorded_at": recorded_at,
            "payload": payload,
        })
        if prev_hash is not UNSET:
            field_dict["prev_hash"] = prev_hash
        if hash_ is not UNSET:
            field_dict["hash"] = hash_
        if signature is not UNSET:
            field_dict["signature"] = signature
        if key_id is not UNSET:
            field_dict["key_id"] = key_id
        if version is not UNSET:
            field_dict["version"] = version
        if active_seats is not UNSET:
            field_dict["active_seats"] = active_seats

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_payload import EventPayload # noqa: PLC0415
        d = dict(src_dict)
        seq = d.pop("seq")

        type_ = d.pop("type")

        schema_version = d.pop("schema_version")

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))


        recorded_at = datetime.datetime.fromisoformat(d.pop("recorded_at"))




        payload = EventPayload.from_dict(d.pop("payload"))




        prev_hash = d.pop("prev_hash", UNSET)

        hash_ = d.pop("hash", UNSET)

        signature = d.pop("signature", UNSET)

        key_id = d.pop("key_id", UNSET)

        version = d.pop("version", UNSET)

        active_seats = cast(list[int], d.pop("active_seats", UNSET))


        event = cls(
            seq=seq,
            type_=type_,
            schema_version=schema_version,
            seat=seat,
            recorded_at=recorded_at,
            payload=payload,
            prev_hash=prev_hash,
            hash_=hash_,
            signature=signature,
            key_id=key_id,
            version=version,
            active_seats=active_seats,
        )

        return event

