"""What a verification says: named checks and their outcomes
(:mod:`events.integrity.verify` for a whole record, :mod:`events.integrity.keyset` for its
signatures).

A check is made or not made: a check not made (``checked`` false: the
signatures without the server's keys, the seed of a record that does not
reveal it) is never ``ok``, so a reader of ``ok`` never takes it for
verified; it is not a failure either (:attr:`Verdict.failed`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core import JSON


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
class Verdict:
    """The outcome of verifying a record."""

    game_id: str
    checks: tuple[Check, ...]
    problems: tuple[str, ...] = field(default=())

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

    def to_json(self) -> dict[str, JSON]:
        """The verdict as JSON data."""
        return {
            "game_id": self.game_id,
            "ok": self.ok,
            "checks": [{"name": c.name, "ok": c.ok, "checked": c.checked, "detail": c.detail} for c in self.checks],
            "problems": list(self.problems),
        }
