from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.problem_outcome import ProblemOutcome
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.field_error import FieldError





T = TypeVar("T", bound="Problem")



@_attrs_define
class Problem:
    """ An RFC 9457 problem; `code` is the stable machine-readable error code.

        Attributes:
            type_ (str): `<problem base>/<code>`, e.g. `https://cablecar.dev/errors/illegal_action`.
            title (str): A short summary of the problem kind.
            status (int): The HTTP status.
            code (str): The stable error code; the known codes are listed in `examples` and in the table above. Open: a
                later
                server may add codes, so handle an unknown one by its HTTP status.
            detail (str): A sentence for humans about this occurrence.
            request_id (str | Unset): The request's `X-Request-Id` (the one sent when well formed, else a fresh one), as in
                the access log.
            errors (list[FieldError] | Unset): On `invalid_request` from a shape check, every field at fault.
            reason (str | Unset): On `illegal_action` and `invalid_config`, the name of the rule that refused the request.
            current_version (int | Unset): On `stale_version` and `stale_cursor`, the game's version now.
            game (str | Unset): On `game_damaged`, the id of the damaged game.
            seq (int | Unset): On `game_damaged`, the first stored event that is not genuine.
            table (int | Unset): On a refused `POST /v1/batches`, the index of the table at fault.
            outcome (ProblemOutcome | Unset): On `unavailable`: `unknown` when the store failed after the write was sent
                (the connection broke
                after a commit may have happened). The write may be stored: send the same request again with the same
                `Idempotency-Key` and its answer is the stored outcome (or the write is made then). Without it,
                nothing was written.
     """

    type_: str
    title: str
    status: int
    code: str
    detail: str
    request_id: str | Unset = UNSET
    errors: list[FieldError] | Unset = UNSET
    reason: str | Unset = UNSET
    current_version: int | Unset = UNSET
    game: str | Unset = UNSET
    seq: int | Unset = UNSET
    table: int | Unset = UNSET
    outcome: ProblemOutcome | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.field_error import FieldError # noqa: PLC0415
        type_ = self.type_

        title = self.title

        status = self.status

        code = self.code

        detail = self.detail

        request_id = self.request_id

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)



        reason = self.reason

        current_version = self.current_version

        game = self.game

        seq = self.seq

        table = self.table

        outcome: str | Unset = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "title": title,
            "status": status,
            "code": code,
            "detail": detail,
        })
        if request_id is not UNSET:
            field_dict["request_id"] = request_id
        if errors is not UNSET:
            field_dict["errors"] = errors
        if reason is not UNSET:
            field_dict["reason"] = reason
        if current_version is not UNSET:
            field_dict["current_version"] = current_version
        if game is not UNSET:
            field_dict["game"] = game
        if seq is not UNSET:
            field_dict["seq"] = seq
        if table is not UNSET:
            field_dict["table"] = table
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field_error import FieldError # noqa: PLC0415
        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        code = d.pop("code")

        detail = d.pop("detail")

        request_id = d.pop("request_id", UNSET)

        _errors = d.pop("errors", UNSET)
        errors: list[FieldError] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = FieldError.from_dict(errors_item_data)



                errors.append(errors_item)


        reason = d.pop("reason", UNSET)

        current_version = d.pop("current_version", UNSET)

        game = d.pop("game", UNSET)

        seq = d.pop("seq", UNSET)

        table = d.pop("table", UNSET)

        _outcome = d.pop("outcome", UNSET)
        outcome: ProblemOutcome | Unset
        if isinstance(_outcome,  Unset):
            outcome = UNSET
        else:
            outcome = ProblemOutcome(_outcome)




        problem = cls(
            type_=type_,
            title=title,
            status=status,
            code=code,
            detail=detail,
            request_id=request_id,
            errors=errors,
            reason=reason,
            current_version=current_version,
            game=game,
            seq=seq,
            table=table,
            outcome=outcome,
        )


        problem.additional_properties = d
        return problem

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
