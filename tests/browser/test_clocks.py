"""Time controls, resignations and cancels in a real browser: clocks count down
live, the active seat warns under ten seconds, a resignation or a timeout shows
up on the other pages without a reload, and the host link cancels the game."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Pages, Server, expect

pytestmark = pytest.mark.browser


def create_timed(server: Server, game_type: str, names: list[str], time_control: dict[str, Any]) -> dict[str, Any]:
    body = {"type": game_type, "players": [{"name": n} for n in names], "time_control": time_control}
    created: dict[str, Any] = server.api.call("POST", "/v1/games", body)
    return created


def seat_link(game: dict[str, Any], seat: int) -> str:
    return f"#game={game['id']}&token={game['seats'][seat]['token']}"


def clock_seconds(text: str) -> int:
    """'1:05' -> 65, '0:29' -> 29, '1:02:05' -> 3725."""
    parts = [int(p) for p in text.strip().split(":")]
    assert len(parts) in (2, 3), text
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds


def test_each_seats_clock_counts_down_live_and_an_untimed_game_shows_none(
    pages: Pages, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    game = create_timed(server, "ttr-sf", ["Ada", "Bo"], {"kind": "per_turn", "seconds": 30})
    page = pages.open(seat_link(game, 1))
    page.wait_for_selector(".ttr-map .route")
    clock = page.locator(".players-table tr[data-seat='0'] .clock")
    expect(clock).to_have_text(re.compile(r"^0:[0-3]\d$"))
    assert clock.get_attribute("data-running") == "true", "both seats choose their tickets: both clocks run"
    first = clock_seconds(clock.inner_text())
    page.wait_for_timeout(1600)
    second = clock_seconds(clock.inner_text())
    assert second < first <= 30, (first, second)
    assert first - second <= 3, "the clock follows the time that passed"
    assert page.locator(".players-table thead th", has_text="Time").count() == 1
    assert "30 s per turn" in page.locator(".time-control").inner_text()
    # this seat's own clock runs above the board, in step with its row
    mine = page.locator(".my-clock")
    expect(mine).to_be_visible()
    assert abs(clock_seconds(mine.locator(".my-clock-time").inner_text()) - clock_seconds(
        page.locator(".players-table tr[data-seat='1'] .clock").inner_text()
    )) <= 1
    shot(page, "clocks_counting")

    untimed = server.api.create("ttr-sf", ["Cy", "Di"], seed="browser-untimed")
    other = pages.open(f"#game={untimed['id']}")
    other.wait_for_selector(".ttr-map .route")
    assert other.locator(".clock").count() == 0, "an untimed game shows no clock"
    assert other.locator(".players-table thead th", has_text="Time").count() == 0
    assert other.locator(".my-clock").is_hidden()


def test_a_resignation_shows_up_for_the_other_seat_without_a_reload(
    pages: Pages, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    game = create_timed(server, "ttr-sf", ["Ada", "Bo"], {"kind": "clock", "initial_seconds": 600, "increment_seconds": 5})
    gid = game["id"]
    bo = pages.open(seat_link(game, 1))
    ada = pages.open(seat_link(game, 0))
    for page in (ada, bo):
        page.wait_for_selector(".ttr-map .route")
    bo.evaluate("window.__same_page = true")

    # Ada's page asks before it resigns: backing out sends nothing
    ada.click("button[data-key=resign]")
    confirm = ada.locator(".confirm[data-confirm=resign]")
    expect(confirm).to_be_visible()
    expect(ada.locator("button[data-key=resign-keep]")).to_be_focused()
    shot(ada, "resign_confirm")
    ada.click("button[data-key=resign-keep]")
    expect(confirm).to_have_count(0)
    assert server.api.view(gid)["players"][0]["standing"] == "in"
    ada.click("button[data-key=resign]")
    ada.click("button[data-key=resign-confirm]")

    # Bo's page follows the stream: Ada is out, the game is over and Bo won
    row = bo.locator(".players-table tr[data-seat='0']")
    expect(row.locator(".standing")).to_have_text("resigned")
    expect(row).to_have_class(re.compile(r"\bout\b"))
    expect(bo.locator(".pill.status-finished")).to_be_visible()
    score = bo.locator(".score-table")
    expect(score.locator("tr[data-seat='1'].winner")).to_be_visible()
    expect(score.locator("tr[data-seat='0'] .standing")).to_have_text("resigned")
    assert bo.locator(".events .event", has_text="Ada resigned").count() == 1
    assert bo.evaluate("window.__same_page") is True, "no reload"
    assert bo.locator("button[data-key=resign]").count() == 0, "nobody resigns a finished game"
    assert bo.locator(".clock[data-running=true]").count() == 0, "the clocks stopped"
    expect(ada.locator(".pill.status-finished")).to_be_visible()
    shot(bo, "resigned_other_seat")
    view = server.api.view(gid)
    assert [p["standing"] for p in view["players"]] == ["resigned", "in"]
    assert view["result"]["winners"] == [1]
    resigns = [r for r in pages.requests if r[0] == "POST" and f"/v1/games/{gid}/actions" in r[1]]
    assert len(resigns) == 1 and resigns[0][2].get("authorization") == f"Bearer {game['seats'][0]['token']}"

    # the replay shows the clocks as they were, standing still, and nobody out yet
    replay = pages.open(f"#game={gid}&replay&at=8")
    replay.wait_for_selector(".ttr-map .route")
    expect(replay.locator(".replay-pos")).to_contain_text("Event 8 of")
    before = replay.locator(".players-table tr[data-seat='0']")
    expect(before.locator(".clock")).to_have_text("10:00")
    assert before.locator(".clock").get_attribute("data-running") == "false"
    assert replay.locator(".players-table .standing").count() == 0
    assert replay.locator("button[data-key=resign]").count() == 0, "no resigning in a replay"
    replay.click("button[data-key=rp-last]")
    expect(replay.locator(".players-table tr[data-seat='0'] .standing")).to_have_text("resigned")
    expect(replay.locator(".score-table tr[data-seat='0'] .standing")).to_have_text("resigned")


def test_a_seat_that_resigns_a_three_seat_game_watches_it_go_on(pages: Pages, server: Server) -> None:
    game = create_timed(server, "cable-car", ["Ada", "Bo", "Cy"], {"kind": "per_turn", "seconds": 120})
    gid = game["id"]
    bo = pages.open(seat_link(game, 1))
    watcher = pages.open(f"#game={gid}")
    for page in (bo, watcher):
        page.wait_for_selector(".cc-board")
    expect(bo.locator("button[data-key=resign]")).to_be_visible()
    server.api.act(gid, game["seats"][1]["token"], {"type": "resign"})

    row = watcher.locator(".players-table tr[data-seat='1']")
    expect(row.locator(".standing")).to_have_text("resigned")
    expect(row).to_contain_text("out of the game")
    expect(row.locator(".clock")).to_have_text("–")
    expect(watcher.locator(".pill.status-playing")).to_be_visible()
    expect(bo.locator(".banner")).to_contain_text("You resigned: the game goes on without you")
    expect(bo.locator("button[data-key=resign]")).to_have_count(0)
    # the seats still in keep their running clock
    expect(watcher.locator(".players-table tr[data-seat='0'] .clock[data-running=true]")).to_have_count(1)


def finish_setup(server: Server, game: dict[str, Any]) -> None:
    """Make every setup choice through the API (the first listed one)."""
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    view = server.api.view(gid)
    while view["status"] == "setup":
        for seat in view["active_seats"]:
            server.api.act(gid, tokens[seat], server.api.legal(gid, tokens[seat])[0])
        view = server.api.view(gid)


def test_the_active_seat_warns_under_ten_seconds_and_then_times_out(
    pages: Pages, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    # a long setup allowance lets the pages load however busy the machine is; then the
    # first turn has 12 s: the warning shows after about 2 s, the timeout after 12 s
    game = create_timed(server, "ttr-sf", ["Ada", "Bo"], {"kind": "per_turn", "seconds": 12, "setup_seconds": 600})
    ada = pages.open(seat_link(game, 0))
    watcher = pages.open(f"#game={game['id']}")
    for page in (ada, watcher):
        page.wait_for_selector(".ttr-map .route")
    watcher.evaluate("window.__same_page = true")
    finish_setup(server, game)
    started = time.monotonic()
    expect(watcher.locator(".pill.status-playing")).to_be_visible()

    row = watcher.locator(".players-table tr[data-seat='0']")
    expect(row).to_have_class(re.compile(r"\blow-time\b"))
    warning = row.locator(".time-warning")
    expect(warning).to_be_visible()
    expect(warning).to_have_text(re.compile(r"^\s*([1-9]|10) s left$"))
    assert "low" in (row.locator(".clock").get_attribute("class") or "")
    assert watcher.locator(".players-table tr[data-seat='1']").get_attribute("class").find("low-time") == -1, (
        "only the seat whose clock runs warns"
    )
    mine = ada.locator(".my-clock")
    expect(mine).to_have_class(re.compile(r"\blow\b"))
    expect(mine).to_contain_text("s left")
    expect(ada.locator(".clock-alert")).to_have_text(re.compile("Less than 10 seconds"))
    shot(watcher, "clock_warning")

    # the deadline passes: the server times Ada out, and both pages show it without a reload
    badge = row.locator(".standing")
    expect(badge).to_have_text("timed out", timeout=15_000)
    expect(row).to_have_class(re.compile(r"\bout\b"))
    expect(row).not_to_have_class(re.compile(r"\blow-time\b"))
    expect(watcher.locator(".pill.status-finished")).to_be_visible()
    expect(watcher.locator(".score-table tr[data-seat='0'] .standing")).to_have_text("timed out")
    expect(watcher.locator(".score-table tr[data-seat='1'].winner")).to_be_visible()
    expect(watcher.locator(".events .event", has_text="Ada ran out of time")).to_have_count(1)
    expect(ada.locator(".pill.status-finished")).to_be_visible()
    expect(ada.locator(".my-clock")).to_be_hidden()
    assert watcher.evaluate("window.__same_page") is True
    assert time.monotonic() - started < 16
    shot(watcher, "timed_out")


def test_the_host_link_from_the_lobby_cancels_the_game_after_a_confirmation(
    pages: Pages, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    lobby = pages.open()
    lobby.wait_for_selector("#type-cable-car")
    lobby.check("#type-cable-car")
    assert lobby.locator("#turn-seconds").is_disabled(), "no time limit unless chosen"
    lobby.check("#time-per_turn")
    lobby.fill("#turn-seconds", "45")
    lobby.click("button[data-key=create]")
    lobby.wait_for_selector(".created")
    expect(lobby.locator(".created")).to_contain_text("45 s per turn")
    host = lobby.get_attribute("a[data-role=host]", "href")
    seat0 = lobby.get_attribute("a[data-role=seat-0]", "href")
    match = re.search(r"#game=([0-9a-f]+)&token=(ht_[A-Za-z0-9_-]+)$", host or "")
    assert match, host
    gid, host_token = match.group(1), match.group(2)
    view = server.api.view(gid)
    assert view["time_control"] == {"kind": "per_turn", "seconds": 45}
    shot(lobby, "lobby_host_link")

    seat = pages.open(seat0)
    manager = pages.open(host)
    for page in (seat, manager):
        page.wait_for_selector(".cc-board")
    seat.evaluate("window.__same_page = true")
    expect(manager.locator(".meta")).to_contain_text("You are the host")
    assert manager.locator("button[data-key=resign]").count() == 0, "the host plays no seat"
    assert seat.locator("button[data-key=cancel-game]").count() == 0, "a seat cannot cancel"

    manager.click("button[data-key=cancel-game]")
    expect(manager.locator(".confirm[data-confirm=cancel]")).to_be_visible()
    manager.keyboard.press("Escape")
    expect(manager.locator(".confirm")).to_have_count(0)
    assert server.api.view(gid)["status"] == "playing"
    manager.click("button[data-key=cancel-game]")
    manager.click("button[data-key=cancel-confirm]")

    for page in (manager, seat):
        expect(page.locator(".pill.status-cancelled")).to_be_visible()
        expect(page.locator(".banner")).to_contain_text("cancelled by its host")
        expect(page.locator(".events .event", has_text="The host cancelled the game")).to_have_count(1)
    assert seat.evaluate("window.__same_page") is True, "the seat saw it without a reload"
    assert seat.locator("button[data-key=resign]").count() == 0
    assert seat.locator(".clock[data-running=true]").count() == 0
    assert server.api.view(gid)["status"] == "cancelled"
    cancels = [r for r in pages.requests if r[0] == "POST" and r[1].endswith(f"/v1/games/{gid}/cancel")]
    assert len(cancels) == 1 and cancels[0][2].get("authorization") == f"Bearer {host_token}"
    assert not [url for _, url, _ in pages.requests if "ht_" in url or "st_" in url], "no token in any URL"
    shot(manager, "host_cancelled")
