"""A scheduled round's game in a real browser: before its start the page says
``scheduled`` and counts down to it, nobody is offered a move; at its time
the game starts by itself and the page shows it without a reload."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.browser.conftest import Pages, Server, expect

pytestmark = pytest.mark.browser


def test_a_scheduled_game_counts_down_to_its_start_then_starts(pages: Pages, server: Server) -> None:
    organiser: dict[str, Any] = server.api.call("POST", "/v1/organisers", {"name": "Bay Area Open"})
    start = (datetime.now(UTC) + timedelta(seconds=6)).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = {"type": "cable-car", "ref": "event-77/round-1", "start_at": start,
            "tables": [{"ref": "t1", "players": [{"name": "Ada"}, {"name": "Bo"}]}]}
    batch: dict[str, Any] = server.api.call("POST", "/v1/batches", body, token=organiser["token"])
    game = batch["games"][0]
    page = pages.open(f"#game={game['id']}&token={game['seats'][0]['token']}")
    banner = page.locator(".banner")
    expect(page.locator(".pill.status-scheduled")).to_be_visible()
    expect(banner).to_have_text(re.compile(r"^The game starts in 0:0\d \(at \d\d:\d\d:\d\d UTC\)"))
    first = banner.inner_text()
    page.wait_for_timeout(1500)
    assert banner.inner_text() != first, "the countdown moves"
    # at its time the game starts (the server's sweeper, or the page's read): no reload
    expect(page.locator(".pill.status-playing")).to_be_visible(timeout=20_000)
    expect(banner).not_to_have_text(re.compile("starts in"))
