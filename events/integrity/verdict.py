"""What a verification says: named checks and their outcomes
(:mod:`events.integrity.verify` for a whole record, :mod:`events.integrity.keyset` for its
signatures), the quarantines the record shows, and one conclusion.

A check is made or not made: a check not made (``checked`` false: the
signatures without the server's keys, the seed of a record that does not
reveal it) is never ``ok``, so a reader of ``ok`` never takes it for
verified; it is not a failure either (:attr:`Verdict.failed`).

The conclusion (:attr:`Verdict.outcome`, :meth:`Verdict.conclusion`) is worded
once, here, for ``/audit`` and ``cablecar verify`` alike, so that both give one
verdict on one record (issue 48): ``valid`` (every check made and passed; a
record with quarantines says so, never a bare VALID), ``not_verified`` (a
check not made, none failed), ``not_valid``, ``damaged_attested`` (only
signatures fail, and the transparency log holds the record as it is: a
logged event is never moved aside) and ``superseded`` (a genuine record whose
tail a later record's quarantine moved aside)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from domain.core import JSON

#: the outcomes of a verdict (:attr:`Verdict.outcome`)
VALID, NOT_VERIFIED, NOT_VALID, DAMAGED_ATTESTED, SUPERSEDED = (
    "valid", "not_verified", "not_valid", "damaged_attested", "superseded")


@dataclass(frozen=True)
class Check:
    """One named check and its outcome (``checked`` false: not made, then never ``ok``)."""

    name: str
    ok: bool
    detail: str
    checked: bool = True

    @classmethod
    def not_made(cls, name: str, why: str) -> Check:
        """A check that was not made, and why (its detail starts ``NOT CHECKED``)."""
        return cls(name, False, f"NOT CHECKED: {why}", checked=False)


@dataclass(frozen=True)
class Quarantine:
    """A quarantine a record shows: its signed ``events_quarantined`` event
    (seq ``seq``, recorded at ``recorded_at``) says the events ``from_seq`` to
    ``to_seq`` were moved aside, listing their ``hashes`` (None: a record of a
    server before issue 48, which did not list them)."""

    seq: int
    from_seq: int
    to_seq: int
    count: int
    hashes: tuple[str, ...] | None
    recorded_at: str

    def line(self) -> str:
        """The quarantine on one line (hashes shortened to 16 digits; :meth:`to_json` has them whole)."""
        listed = ("hashes " + " ".join(h[:16] for h in self.hashes) if self.hashes is not None
                  else "the hashes moved were not listed (a record from before issue 48)")
        return (f"seq {self.seq}: events seq {self.from_seq}..{self.to_seq} ({self.count}) were moved aside by "
                f"the server's operator at {self.recorded_at}, and the game went on from seq {self.seq}; {listed}")

    def to_json(self) -> dict[str, JSON]:
        """As ``/audit`` and ``cablecar verify --json`` report it."""
        return {"seq": self.seq, "from_seq": self.from_seq, "to_seq": self.to_seq, "count": self.count,
                "hashes": None if self.hashes is None else list(self.hashes), "recorded_at": self.recorded_at}


@dataclass(frozen=True)
class Superseded:
    """This record's events ``from_seq`` to ``to_seq`` were moved aside by the
    quarantine recorded as seq ``quarantine_seq`` of the later record ``later``."""

    from_seq: int
    to_seq: int
    quarantine_seq: int
    later: str

    def to_json(self) -> dict[str, JSON]:
        """As ``cablecar verify --json`` reports it."""
        return {"from_seq": self.from_seq, "to_seq": self.to_seq, "quarantine_seq": self.quarantine_seq,
                "later": self.later}


_FIRST_SEQ = re.compile(r"seq (\d+):")


@dataclass(frozen=True)
class Verdict:
    """The outcome of verifying a record."""

    game_id: str
    checks: tuple[Check, ...]
    problems: tuple[str, ...] = field(default=())
    #: the quarantines the record shows, oldest first
    quarantines: tuple[Quarantine, ...] = field(default=())
    #: set when a later record's quarantine moved this record's tail aside
    superseded: Superseded | None = None

    @property
    def ok(self) -> bool:
        """True when every check was made and passed."""
        return all(c.ok for c in self.checks)

    @property
    def failed(self) -> bool:
        """True when a check that was made failed (a check not made is no failure)."""
        return any(c.checked and not c.ok for c in self.checks)

    @property
    def not_checked(self) -> tuple[str, ...]:
        """The names of the checks not made."""
        return tuple(c.name for c in self.checks if not c.checked)

    def with_checks(self, *checks: Check) -> Verdict:
        """This verdict with ``checks`` added after its own."""
        return Verdict(self.game_id, (*self.checks, *checks), self.problems, self.quarantines, self.superseded)

    @property
    def damaged_from(self) -> int | None:
        """The first event whose signature fails (None: none does, or it is not named)."""
        for c in self.checks:
            if c.name == "signatures" and c.checked and not c.ok:
                found = _FIRST_SEQ.match(c.detail)
                return int(found.group(1)) if found else None
        return None

    @property
    def attested(self) -> bool:
        """Whether only signatures fail and the transparency log holds the
        record as it is (an ``inclusion`` check passed: its last event is a
        leaf of a signed checkpoint, and its hash chain commits to every
        earlier event)."""
        failed = {c.name for c in self.checks if c.checked and not c.ok}
        return failed == {"signatures"} and any(c.name == "inclusion" and c.ok for c in self.checks)

    @property
    def outcome(self) -> str:
        """``valid``, ``not_verified``, ``not_valid``, ``damaged_attested`` or ``superseded`` (module docs)."""
        if self.failed:
            return DAMAGED_ATTESTED if self.attested else NOT_VALID
        if self.not_checked:
            return NOT_VERIFIED
        return SUPERSEDED if self.superseded is not None else VALID

    def conclusion(self) -> str:
        """The verdict's words after ``game ID`` (``cablecar verify``'s last line, ``/audit``'s ``conclusion``)."""
        outcome = self.outcome
        if outcome == SUPERSEDED and self.superseded is not None:
            s = self.superseded
            return (f"is SUPERSEDED at seq {s.from_seq}: genuine (every check passed), later rewritten: its events "
                    f"seq {s.from_seq}..{s.to_seq} were moved aside by the quarantine recorded as seq "
                    f"{s.quarantine_seq} of {s.later}")
        if outcome == DAMAGED_ATTESTED:
            at = self.damaged_from
            return (f"is DAMAGED{f' at seq {at}' if at else ''} and LOG-ATTESTED: a stored signature does not "
                    "verify, and the transparency log holds the record as it is (a logged event is never moved "
                    "aside); NOT VALID")
        words = {NOT_VALID: "is NOT VALID", VALID: "is VALID"}.get(outcome)
        if words is None:
            words = (f"is NOT VERIFIED: {', '.join(self.not_checked)} NOT CHECKED "
                     "(no check made found a problem)")
        if self.quarantines:
            runs = "; ".join(f"seq {q.from_seq}..{q.to_seq} moved aside at seq {q.seq}" for q in self.quarantines)
            words += (f", with {len(self.quarantines)} QUARANTINE{'S' if len(self.quarantines) > 1 else ''} "
                      f"({runs}): the game went on from there")
        return words

    def to_json(self) -> dict[str, JSON]:
        """The verdict as JSON data."""
        out: dict[str, JSON] = {
            "game_id": self.game_id,
            "ok": self.ok,
            "verdict": self.outcome,
            "conclusion": f"game {self.game_id} {self.conclusion()}",
            "checks": [{"name": c.name, "ok": c.ok, "checked": c.checked, "detail": c.detail} for c in self.checks],
            "problems": list(self.problems),
        }
        if self.quarantines:
            out["quarantines"] = [q.to_json() for q in self.quarantines]
        if self.superseded is not None:
            out["superseded"] = self.superseded.to_json()
        return out
