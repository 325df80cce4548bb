from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.audit_check import AuditCheck





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
     """

    game_id: str
    version: int
    ok: bool
    checks: list[AuditCheck]
    problems: list[str]





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_check import AuditCheck # noqa: PLC0415
        game_id = self.game_id

        version = self.version

        ok = self.ok

        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)



        problems = self.problems




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "game_id": game_id,
            "version": version,
            "ok": ok,
            "checks": checks,
            "problems": problems,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_check import AuditCheck # noqa: PLC0415
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


        audit = cls(
            game_id=game_id,
            version=version,
            ok=ok,
            checks=checks,
            problems=problems,
        )

        return audit

