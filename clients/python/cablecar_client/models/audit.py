from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.audit_check import AuditCheck
  from ..models.quarantined_run import QuarantinedRun





T = TypeVar("T", bound="Audit")



@_attrs_define
class Audit:
    """ The verdict of the offline verifier's checks run on the stored game.

        Attributes:
            game_id (str):
            version (int):
            ok (bool): True when every check was made and passed (a check not made, `checked` false, makes it false).
            checks (list[AuditCheck]): The checks in the order they ran: `chain` (hash chain intact from genesis),
                `signatures` (every event
                signed by one of the server's keys, `GET /v1/keys`, and recorded no later than that key's `retired_at`;
                an unsigned event passes only when recorded before the server's oldest key was made, a record from
                before the server signed, and before any signed event of the game), `seed` (the seed matches the
                commitment published at creation), `setup` (the opening events re-derived from the seed), `moves`
                (every move replayed through the rules; every `seat_timed_out` recorded at or after that seat's deadline
                as derived from the recorded timestamps, with the consequences the forfeit rules give; a
                `game_cancelled` only before the end), `result` (final status and result equal the replay). A record
                that cannot be checked at all has a single `game_type` or `format` check; `rules_version` appears when
                the record was made under other rules. Later checks are skipped when an earlier one fails.
            problems (list[str]): Further problems found, one sentence each.
            damaged_from (int | Unset): Only for a damaged game (its stored record fails its chain or signature check from
                this event on): the
                seq of the first bad event. What is shown is the game up to the event before it (`version`); every
                action or write answers `409 game_damaged` until an operator moves the bad events aside (`cablecar
                quarantine`, recorded as an `events_quarantined` event). Absent for a sound game.
            quarantined (list[QuarantinedRun] | Unset): Only for a game an operator repaired: each run of events moved aside
                (`cablecar quarantine`), oldest
                first. The chain checked is the one the game went on with (each run replaced by an
                `events_quarantined` event chained on the last good event).
     """

    game_id: str
    version: int
    ok: bool
    checks: list[AuditCheck]
    problems: list[str]
    damaged_from: int | Unset = UNSET
    quarantined: list[QuarantinedRun] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_check import AuditCheck # noqa: PLC0415
        from ..models.quarantined_run import QuarantinedRun # noqa: PLC0415
        game_id = self.game_id

        version = self.version

        ok = self.ok

        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)



        problems = self.problems



        damaged_from = self.damaged_from

        quarantined: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.quarantined, Unset):
            quarantined = []
            for quarantined_item_data in self.quarantined:
                quarantined_item = quarantined_item_data.to_dict()
                quarantined.append(quarantined_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "game_id": game_id,
            "version": version,
            "ok": ok,
            "checks": checks,
            "problems": problems,
        })
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from
        if quarantined is not UNSET:
            field_dict["quarantined"] = quarantined

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_check import AuditCheck # noqa: PLC0415
        from ..models.quarantined_run import QuarantinedRun # noqa: PLC0415
        d = dict(src_dict)
        game_id = d.pop("game_id")

        version = d.pop("version")

        ok = d.pop("ok")

        checks = []
        _checks = d.pop("checks")
        for checks_item_data in (_checks):
            checks_item = AuditCheck.from_dict(checks_item_data)



            checks.append(checks_item)


        problems = cast(list[str], d.pop("problems"))


        damaged_from = d.pop("damaged_from", UNSET)

        _quarantined = d.pop("quarantined", UNSET)
        quarantined: list[QuarantinedRun] | Unset = UNSET
        if _quarantined is not UNSET:
            quarantined = []
            for quarantined_item_data in _quarantined:
                quarantined_item = QuarantinedRun.from_dict(quarantined_item_data)



                quarantined.append(quarantined_item)


        audit = cls(
            game_id=game_id,
            version=version,
            ok=ok,
            checks=checks,
            problems=problems,
            damaged_from=damaged_from,
            quarantined=quarantined,
        )

        return audit

