"""The reference bot thinks within its clock (``cablecar bot ... --think-ms``)."""

from __future__ import annotations

import argparse

import pytest

from bots.cli import _clock
from bots.client import CLOCK_MARGIN_SECONDS, think_time


def test_the_bot_thinks_as_long_as_asked_without_a_clock() -> None:
    assert think_time({"clocks": []}, 0, 250) == 0.25
    assert think_time({}, 0, 0) == 0.0


def test_the_bot_never_thinks_past_its_running_clock() -> None:
    view = {"clocks": [{"seat": 0, "remaining_seconds": 1.0, "running": True},
                       {"seat": 1, "remaining_seconds": 0.2, "running": False}]}
    assert think_time(view, 0, 5000) == pytest.approx(1.0 - CLOCK_MARGIN_SECONDS)
    assert think_time(view, 0, 100) == 0.1
    assert think_time(view, 1, 300) == 0.3  # not running: it is not this seat's turn
    nearly_out = {"clocks": [{"seat": 0, "remaining_seconds": 0.3, "running": True}]}
    assert think_time(nearly_out, 0, 300) == 0.0


def test_a_clock_option_reads_initial_and_increment() -> None:
    assert _clock("300+5") == (300, 5)
    assert _clock("60") == (60, 0)
    for bad in ("0+5", "60+-1", "x", "60+y"):
        with pytest.raises(argparse.ArgumentTypeError):
            _clock(bad)
