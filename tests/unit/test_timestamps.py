"""``parse_timestamp``: the fast path for what the stores write, and the same
answer as ``strptime`` for anything else it accepts or refuses."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.encoding.timestamps import epoch_seconds, format_timestamp, parse_timestamp

_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


@given(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31), timezones=st.just(UTC)))
def test_written_timestamps_round_trip(moment: datetime) -> None:
    text = format_timestamp(moment)
    assert parse_timestamp(text) == moment
    assert parse_timestamp(text) == datetime.strptime(text, _FORMAT).replace(tzinfo=UTC)
    assert epoch_seconds(text) == moment.timestamp()


@pytest.mark.parametrize("text", ["2024-05-01T12:34:56.5Z", "2024-5-1T12:34:56.123456Z"])
def test_other_forms_strptime_accepts_still_parse(text: str) -> None:
    assert parse_timestamp(text) == datetime.strptime(text, _FORMAT).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    ["2024-05-01T12:34:56.123456", "2024-05-01 12:34:56.123456Z", "2024-05-01T12:34:56.123456+00:00",
     "2024-02-30T12:34:56.123456Z", ""],
)
def test_malformed_timestamps_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_timestamp(text)
