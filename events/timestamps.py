"""Timestamps as the stores write them: UTC, ISO 8601, microseconds, ``Z``.

``2024-05-01T12:34:56.123456Z`` sorts lexicographically in time order and is
what ``recorded_at`` (hashed, so it must round-trip exactly) and the game
rows' ``created_at`` / ``updated_at`` hold.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

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


def parse_timestamp(text: str) -> datetime:
    """The aware UTC datetime written by :func:`format_timestamp`."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
