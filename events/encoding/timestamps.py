"""Timestamps as the stores write them: UTC, ISO 8601, microseconds, ``Z``.

``2024-05-01T12:34:56.123456Z`` sorts lexicographically in time order and is
what ``recorded_at`` (hashed, so it must round-trip exactly) and the game
rows' ``created_at`` / ``updated_at`` hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache

#: A source of the current time; stores accept one so tests can pin the clock.
Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def format_timestamp(moment: datetime) -> str:
    """``moment`` as ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (converted to UTC).

    Raises ``ValueError`` for a naive datetime (its zone would be a guess)."""
    if moment.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    # isoformat of a UTC datetime ends in "+00:00"; it is faster than strftime
    return moment.astimezone(UTC).isoformat(timespec="microseconds")[:-6] + "Z"


#: exactly what :func:`format_timestamp` writes (ASCII digits only)
_WRITTEN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")


def parse_timestamp(text: str) -> datetime:
    """The aware UTC datetime written by :func:`format_timestamp`.

    Raises ``ValueError`` for text in another format."""
    if isinstance(text, str) and _WRITTEN.fullmatch(text):
        # every event's clock reading passes here: fromisoformat is ~20x cheaper than strptime
        return datetime.fromisoformat(text[:-1]).replace(tzinfo=UTC)
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


@lru_cache(maxsize=1024)
def epoch_seconds(text: str) -> float:
    """:func:`parse_timestamp` as seconds since the epoch (the events of one
    append share one timestamp, so the last few are remembered)."""
    return parse_timestamp(text).timestamp()
