from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.audit_verdict import AuditVerdict
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.audit_check import AuditCheck
  from ..models.quarantined_run import QuarantinedRun
  from ..models.recorded_quarantine import RecordedQuarantine





T = TypeVar("T", bound="Audit")



@_attrs_define
class Audit:
    """ The verdict of the offline verifier's checks run on the stored game: `verdict` and `conclusion` are what
    `cablecar verify` says of the same record (with `--keys`, and `--checkpoint` for a damaged one).

        Attributes:
            game_id (str):
            version (int):
            ok (bool): True when every check was made and passed (a check not made, `checked` false, makes it false).
            verdict (AuditVerdict): One word for the record: `valid` (every check made and passed; a record with quarantines
                lists them in
                `quarantines`), `not_verified` (a check not made, none failed), `not_valid`, `damaged_attested` (only
                signatures fail, and the transparency log's latest checkpoint holds the record as stored, in the
                `inclusion` check: a logged event is never moved aside), `superseded` (`cablecar verify --against`
                only: a genuine record whose tail a later record's quarantine moved aside).
            conclusion (str): The verdict in words, as `cablecar verify` prints it (`game ID is VALID, with 1 QUARANTINE
                ...`).
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
            quarantines (list[RecordedQuarantine] | Unset): Only for a record with quarantines: each signed
                `events_quarantined` event of the record, as the
                record states it (the seq range and the hashes moved aside; `hashes` null for one recorded before
                issue 48), oldest first.
            damaged_from (int | Unset): Only for a damaged game (its stored record fails its chain or signature check from
                this event on): the
                seq of the first bad event. What is shown is the game up to the event before it (`version`); every
                action or write answers `409 game_damaged` until an operator moves the bad events aside (`cablecar
                quarantine`, recorded as an `events_quarantined` event), which is possible only for events no published
                checkpoint of the transparency log holds. Absent for a sound game.
            quarantined (list[QuarantinedRun] | Unset): Only for a game an operator repaired: each run of events moved aside
                (`cablecar quarantine`), oldest
                first. The chain checked is the one the game went on with (each run replaced by an
                `events_quarantined` event chained on the last good event).
     """

    game_id: str
    version: int
    ok: bool
    verdict: AuditVerdict
    conclusion: str
    checks: list[AuditCheck]
    problems: list[str]
    quarantines: list[RecordedQuarantine] | Unset = UNSET
    damaged_from: int | Unset = UNSET
    quarantined: list[QuarantinedRun] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_check import AuditCheck # noqa: PLC0415
        from ..models.quarantined_run import QuarantinedRun # noqa: PLC0415
        from ..models.recorded_quarantine import RecordedQuarantine # noqa: PLC0415
        game_id = self.game_id

        version = self.version

        ok = self.ok

        verdict = self.verdict.value

        conclusion = self.conclusion

        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)



        problems = self.problems



        quarantines: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.quarantines, Unset):
            quarantines = []
            for quarantines_item_data in self.quarantines:
                quarantines_item = quarantines_item_data.to_dict()
                quarantines.append(quarantines_item)



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
            "verdict": verdict,
            "conclusion": conclusion,
            "checks": checks,
            "problems": problems,
        })
        if quarantines is not UNSET:
            field_dict["quarantines"] = quarantines
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from
        if quarantined is not UNSET:
            field_dict["quarantined"] = quarantined

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_check import AuditCheck # noqa: PLC0415
        from ..models.quarantined_run import QuarantinedRun # noqa: PLC0415
        from ..models.recorded_quarantine import RecordedQuarantine # noqa: PLC0415
        d = dict(src_dict)
        game_id = d.pop("game_id")

        version = d.pop("version")

        ok = d.pop("ok")

        verdict = AuditVerdict(d.pop("verdict"))




        conclusion = d.pop("conclusion")

        checks = []
        _checks = d.pop("checks")
        for checks_item_data in (_checks):
            checks_item = AuditCheck.from_dict(checks_item_data)



            checks.append(checks_item)


        problems = cast(list[str], d.pop("problems"))


        _quarantines = d.pop("quarantines", UNSET)
        quarantines: list[RecordedQuarantine] | Unset = UNSET
        if _quarantines is not UNSET:
            quarantines = []
            for quarantines_item_data in _quarantines:
                quarantines_item = RecordedQuarantine.from_dict(quarantines_item_data)



                quarantines.append(quarantines_item)


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
            verdict=verdict,
            conclusion=conclusion,
            checks=checks,
            problems=problems,
            quarantines=quarantines,
            damaged_from=damaged_from,
            quarantined=quarantined,
        )

        return audit

