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
  from ..models.event_envelope_payload import EventEnvelopePayload





T = TypeVar("T", bound="EventEnvelope")



@_attrs_define
class EventEnvelope:
    """ A stored event with every envelope field, unredacted.

        Attributes:
            game_id (str):
            seq (int):
            position (int): Position in the server's global log (across games).
            type_ (str):
            schema_version (int):
            payload (EventEnvelopePayload):
            recorded_at (datetime.datetime):
            seat (int | None):
            idempotency_key (None | str):
            prev_hash (str):
            hash_ (str):
            signature (str | Unset): Ed25519 signature of the ASCII bytes of `hash` by the key `key_id`, base64url without
                padding; absent on
                an event written before the server signed its records (`cablecar verify` reports those as unsigned).
            key_id (str | Unset): The id of the signing key, as listed by `GET /v1/keys`; absent when unsigned.
     """

    game_id: str
    seq: int
    position: int
    type_: str
    schema_version: int
    payload: EventEnvelopePayload
    recorded_at: datetime.datetime
    seat: int | None
    idempotency_key: None | str
    prev_hash: str
    hash_: str
    signature: str | Unset = UNSET
    key_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_envelope_payload import EventEnvelopePayload # noqa: PLC0415
        game_id = self.game_id

        seq = self.seq

        position = self.position

        type_ = self.type_

        schema_version = self.schema_version

        payload = self.payload.to_dict()

        recorded_at = self.recorded_at.isoformat()

        seat: int | None
        seat = self.seat

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        prev_hash = self.prev_hash

        hash_ = self.hash_

        signature = self.signature

        key_id = self.key_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "game_id": game_id,
            "seq": seq,
            "position": position,
            "type": type_,
            "schema_version": schema_version,
            "payload": payload,
            "recorded_at": recorded_at,
            "seat": seat,
            "idempotency_key": idempotency_key,
            "prev_hash": prev_hash,
            "hash": hash_,
        })
        if signature is not UNSET:
            field_dict["signature"] = signature
        if key_id is not UNSET:
            field_dict["key_id"] = key_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_envelope_payload import EventEnvelopePayload # noqa: PLC0415
        d = dict(src_dict)
        game_id = d.pop("game_id")

        seq = d.pop("seq")

        position = d.pop("position")

        type_ = d.pop("type")

        schema_version = d.pop("schema_version")

        payload = EventEnvelopePayload.from_dict(d.pop("payload"))




        recorded_at = datetime.datetime.fromisoformat(d.pop("recorded_at"))




        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))


        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key"))


        prev_hash = d.pop("prev_hash")

        hash_ = d.pop("hash")

        signature = d.pop("signature", UNSET)

        key_id = d.pop("key_id", UNSET)

        event_envelope = cls(
            game_id=game_id,
            seq=seq,
            position=position,
            type_=type_,
            schema_version=schema_version,
            payload=payload,
            recorded_at=recorded_at,
            seat=seat,
            idempotency_key=idempotency_key,
            prev_hash=prev_hash,
            hash_=hash_,
            signature=signature,
            key_id=key_id,
        )


        event_envelope.additional_properties = d
        return event_envelope

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
