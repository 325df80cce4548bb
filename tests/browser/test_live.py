"""A game page stays live (issue 36): a seat's page opens its own stream with a
single-use ticket; when the server refuses streams it reads the game every few
seconds instead and says "catching up"; a game that is over shows no
"connecting"; a page that lost the server says so, and stops saying so once it is back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.conftest import Pages, Server, expect, free_port, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that grants no event stream at all (every one is 503 streams_busy)."""
    with serving(tmp_path_factory.mktemp("refusing"), CABLECAR_SSE_MAX_STREAMS="0") as started:
        yield started


def _state(page: Any) -> Any:
    return page.locator(".live-state")


def _keep_first(server: Server, gid: str, token: str) -> None:
    server.api.act(gid, token, server.api.legal(gid, token)[0])


def test_a_seat_page_from_a_link_streams_with_a_ticket(pages: Pages, server: Server) -> None:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-ticket")
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    page = pages.open(f"#game={gid}&token={tokens[1]}")
    page.wait_for_selector(".action.keep")
    expect(_state(page)).to_have_attribute("data-state", "live")
    asked = [r for r in pages.requests if r[0] == "POST" and r[1].endswith(f"/v1/games/{gid}/stream-tickets")]
    assert asked and all(h.get("authorization") == f"Bearer {tokens[1]}" for _, _, h in asked)
    streams = [url for _, url, _ in pages.requests if "/events/stream" in url]
    tickets = [parse_qs(urlsplit(url).query).get("ticket", [""])[0] for url in streams]
    assert tickets and all(tickets), "the seat's stream is opened with a ticket"
    _keep_first(server, gid, tokens[0])
    page.locator(".events .event", has_text="Ada kept").wait_for()
    page.context.close()  # the stream's line is written once it ends (the server notices within 2 s)
    deadline = time.monotonic() + 10
    while f"/v1/games/{gid}/events/stream" not in server.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    log = server.log.read_text()
    assert f"/v1/games/{gid}/events/stream" in log, "the stream's access log line"
    assert not [t for t in tickets if t in log], "no ticket in the access log"


def test_a_refused_stream_falls_back_to_reading_the_game(pages: Pages, refusing: Server) -> None:
    game = refusing.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-refused")
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    page = pages.open(refusing.base + f"#game={gid}&token={tokens[1]}")
    page.wait_for_selector(".action.keep")
    expect(_state(page)).to_have_attribute("data-state", "catching-up")
    expect(_state(page)).to_contain_text("catching up")
    _keep_first(refusing, gid, tokens[0])
    # within a few seconds (the server's Retry-After is 5 s) though no stream was ever granted
    page.locator(".events .event", has_text="Ada kept").wait_for(timeout=12_000)
    # ... and the page keeps asking for the stream again, each time with a new ticket
    page.wait_for_timeout(5_500)
    streams = [url for _, url, _ in pages.requests if "/events/stream" in url]
    tickets = {parse_qs(urlsplit(url).query)["ticket"][0] for url in streams}
    assert len(streams) >= 2 and len(tickets) == len(streams)


def test_a_spectator_page_reads_the_game_while_refused(pages: Pages, refusing: Server) -> None:
    game = refusing.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-refused-spectator")
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    page = pages.open(refusing.base + f"#game={gid}")
    expect(_state(page)).to_have_attribute("data-state", "catching-up")
    version = refusing.api.view(gid)["version"]
    _keep_first(refusing, gid, tokens[0])
    expect(page.locator(".version")).to_have_text(f"version {version + 1}", timeout=12_000)


def test_a_game_that_is_over_shows_no_connecting(pages: Pages, server: Server) -> None:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-over")
    gid = game["id"]
    server.api.call("POST", f"/v1/games/{gid}/cancel", token=game["host_token"])
    for fragment in (f"#game={gid}", f"#game={gid}&token={game['seats'][0]['token']}"):
        page = pages.open(fragment)
        expect(page.locator(".pill.status-cancelled")).to_be_visible()
        expect(_state(page)).to_have_attribute("data-state", "ended")
        page.wait_for_timeout(500)
        text = page.locator("body").inner_text().lower()
        assert "connecting" not in text and "spinner" not in (page.content().lower())
    assert not [url for _, url, _ in pages.requests if "/events/stream" in url or "stream-tickets" in url]


def test_a_spectator_page_clears_the_server_unreachable_problem_once_it_is_live_again(
    browser: Any, tmp_path: Path
) -> None:
    """Issue 55: the server went away and came back; the page, which never clicked anything, said "could not
    be reached" while it was away and says nothing of it once it follows the game again."""
    data, port = tmp_path / "data", free_port()
    data.mkdir()
    pages = Pages(browser, "")
    try:
        with serving(data, port=port) as first:
            game = first.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-server-away")
            page = pages.open(first.base + f"#game={game['id']}")
            expect(_state(page)).to_have_attribute("data-state", "live")
            expect(page.locator(".problem")).to_be_hidden()
        # stopped: the stream breaks, the reads that stand in for it fail
        expect(_state(page)).to_have_attribute("data-state", "offline", timeout=15_000)
        expect(page.locator(".problem")).to_be_visible()
        expect(page.locator(".problem")).to_contain_text("could not be reached")
        with serving(data, port=port) as again:
            expect(_state(page)).to_have_attribute("data-state", "live", timeout=20_000)
            expect(page.locator(".problem")).to_be_hidden()
            again.api.act(game["id"], game["seats"][0]["token"], again.api.legal(game["id"], game["seats"][0]["token"])[0])
            page.locator(".events .event", has_text="Ada kept").wait_for()
            expect(page.locator(".problem")).to_be_hidden()
    finally:
        pages.close()
    # while it was away Chromium logged each broken or refused connection; nothing else went wrong
    assert [e for e in pages.errors if "net::ERR_CONNECTION_" not in e] == []
