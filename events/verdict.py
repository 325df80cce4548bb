"""What a verification says: named checks and their outcomes
(:mod:`events.verify` for a whole record, :mod:`events.keyset` for its
signatures)."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.core import JSON


@dataclass(frozen=True)
class Check:
    """One named check and its outcome."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class Verdict:
    """The outcome of verifying a record."""

    game_id: str
    checks: tuple[Check, ...]
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when every check passed."""
        return all(c.ok for c in self.checks)

    def to_json(self) -> dict[str, JSON]:
        """The verdict as JSON data."""
        return {
            "game_id": self.game_id,
            "ok": self.ok,
            "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks],
            "problems": list(self.problems),
        }
