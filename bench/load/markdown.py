"""Markdown pieces the reports share: numbers, percentages, tables, error counts, integrity verdicts."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

from bench.load.integrity import IntegrityReport


def number(value: float, digits: int = 1) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:,.{digits}f}"


def percent(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value * 100:.1f} %"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


def error_counts(counter: Counter[str]) -> str:
    return ", ".join(f"{kind}: {n}" for kind, n in counter.most_common()) or "none"


def integrity_text(report: IntegrityReport) -> str:
    verdict = "**OK**" if report.ok else "**PROBLEM**"
    return (f"{verdict}: {report.games} games, {report.events:,} stored events, {report.acknowledged_actions:,} "
            f"acknowledged actions; lost {report.lost}, duplicated {report.duplicated}, changed "
            f"{report.mismatched}, seq gaps {report.gaps}; audits ok {report.audits_ok}/{report.games}")
