"""What ``cablecar bot play`` prints: a line per game, a progress bar, a summary table."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO


@dataclass
class Tally:
    """Results per strategy over a run of games."""

    games: int = 0
    with_winner: int = 0
    seats: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    scores: dict[str, list[int]] = field(default_factory=dict)

    def add(self, strategies: Sequence[str], winners: Sequence[int], scores: Sequence[int | None]) -> None:
        """Count one finished game (a shared victory counts as a share of a win)."""
        self.games += 1
        if winners:
            self.with_winner += 1
        for seat, name in enumerate(strategies):
            self.seats[name] = self.seats.get(name, 0) + 1
            if seat in winners:
                self.wins[name] = self.wins.get(name, 0.0) + 1.0 / len(winners)
            score = scores[seat] if seat < len(scores) else None
            if score is not None:
                self.scores.setdefault(name, []).append(score)

    def table(self) -> str:
        """The summary as a plain-text table."""
        lines = [f"{'strategy':<10} {'seats':>6} {'wins':>6} {'win %':>6} {'avg score':>10}"]
        for name in sorted(self.seats):
            seats, wins = self.seats[name], self.wins.get(name, 0.0)
            scores = self.scores.get(name)
            avg = f"{sum(scores) / len(scores):.1f}" if scores else "-"
            lines.append(f"{name:<10} {seats:>6} {wins:>6g} {100 * wins / seats:>5.1f}% {avg:>10}")
        stalled = self.games - self.with_winner
        lines.append(f"games: {self.games} finished with a winner: {self.with_winner}, without (stalled or cut off): {stalled}")
        return "\n".join(lines)


class Progress:
    """A one-line progress bar on a terminal (nothing when the stream is not one)."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.shown = total > 1 and self.stream.isatty()

    def update(self, done: int, note: str = "") -> None:
        if not self.shown:
            return
        filled = self.width * done // max(1, self.total)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} {note[:40]:<40}")
        self.stream.flush()

    def clear(self) -> None:
        """Wipe the bar so that a line can be printed in its place (it comes back on the next update)."""
        if self.shown:
            self.stream.write("\r" + " " * (self.width + 60) + "\r")
            self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def final_scores(view: dict[str, Any]) -> list[int | None]:
    """Each seat's final total from a finished game's view (None where the game has none)."""
    result = view.get("result") or {}
    by_seat = {p.get("seat"): p.get("total") for p in result.get("players", []) if isinstance(p, dict)}
    return [by_seat.get(i) for i in range(len(view.get("players", [])))]
