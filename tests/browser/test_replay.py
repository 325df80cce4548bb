"""Replaying a finished game in a real browser: a slider over versions, the
event list beside the board, the final score table."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Api, Pages, Server, expect

pytestmark = pytest.mark.browser


def play_to_the_end(api: Api, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Play every seat through the API (claiming whenever it can) until the game is over."""
    tokens = [s["token"] for s in game["seats"]]
    for _ in range(2000):
        view = api.view(game["id"])
        if view["status"] == "finished":
            return view
        seat = view["active_seats"][0]
        actions = api.legal(game["id"], tokens[seat])
        claims = [a for a in actions if a["type"] == "claim_route"]
        keeps = [a for a in actions if a["type"] == "keep_tickets"]
        if claims:
            action = max(claims, key=lambda a: sum(a["cards"].values()))
        elif keeps:
            action = min(keeps, key=lambda a: len(a["tickets"]))
        else:
            draws = [a for a in actions if a["type"] != "draw_tickets"]
            action = rng.choice(draws or actions)
        api.act(game["id"], tokens[seat], {**action, "expected_version": view["version"]})
    raise AssertionError("the game did not finish")


@pytest.fixture(scope="module")
def finished_game(server: Server) -> dict[str, Any]:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-replay")
    final = play_to_the_end(server.api, game, random.Random(7))
    return {**game, "final": final}


def test_a_finished_game_is_replayed_step_by_step_with_the_slider(
    pages: Pages, finished_game: dict[str, Any], shot: Callable[[Any, str], Path]
) -> None:
    gid, final = finished_game["id"], finished_game["final"]
    last = final["version"]
    page = pages.open(f"#game={gid}&replay")
    slider = page.locator("#replay-slider")
    slider.wait_for()
    assert slider.get_attribute("max") == str(last)
    # a replay opens at the start (issue 37), with a Play button that steps through the game by itself
    page.locator(".version", has_text=f"version 1 / {last}").wait_for()
    assert page.locator(".result").count() == 0 and page.locator(".ttr-map .route.claimed").count() == 0
    play = page.locator("button[data-key=rp-play]")
    expect(play).to_have_text("Play")
    play.click()
    page.locator(".version", has_text=f"version 3 / {last}").wait_for()
    expect(play).to_have_text("Pause")
    play.click()
    expect(play).to_have_text("Play")
    shot(page, "replay_opened")
    # the last event: the final score table, with the winner marked
    page.click("button[data-key=rp-last]")
    page.locator(".version", has_text=f"version {last} / {last}").wait_for()
    result = page.locator(".result .score-table")
    result.wait_for()
    assert result.locator("tbody tr[data-seat]").count() == 2
    assert result.locator("tr.winner[data-seat]").count() == len(final["result"]["winners"])
    totals = [int(t) for t in result.locator("td.total").all_inner_texts()]
    assert totals == [p["total"] for p in final["result"]["players"]]
    # the players' table labels its columns: route points while playing, and the final table's total beside
    players = page.locator(".players-table")
    assert [t.lower() for t in players.locator("thead th").all_inner_texts()[1:3]] == ["route points", "total"]
    assert [int(t) for t in players.locator("td.total").all_inner_texts()] == totals
    assert [int(t) for t in players.locator("td.score").all_inner_texts()] == [
        p["route_points"] for p in final["result"]["players"]]
    assert page.locator(".events .event").count() == last
    shot(page, "replay_end")

    # keyboard on the slider: Home goes to the first event, arrows step
    slider.focus()
    page.keyboard.press("Home")
    page.locator(".version", has_text=f"version 1 / {last}").wait_for()
    expect(page.locator(".event.current")).to_have_attribute("data-seq", "1")
    assert page.locator(".ttr-map .route.claimed").count() == 0
    assert page.locator(".result").count() == 0, "no final score before the end"
    assert "total" not in page.locator(".players-table thead").inner_text().lower()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.locator(".version", has_text=f"version 6 / {last}").wait_for()
    expect(page.locator(".event.current")).to_have_attribute("data-seq", "6")
    assert "&at=6" in page.url, "the position is kept in the URL fragment"
    shot(page, "replay_start")

    # picking an event in the list jumps there: the first claimed route appears on the map
    first_claim = page.locator(".event", has_text="claimed").first
    seq = first_claim.get_attribute("data-seq")
    first_claim.locator("button").click()
    page.locator(".version", has_text=f"version {seq} / {last}").wait_for()
    expect(page.locator(".ttr-map .route.claimed")).to_have_count(1)
    expect(page.locator(".event.current")).to_have_attribute("data-seq", str(seq))

    # the next and previous buttons step one event
    page.click("button[data-key=rp-next]")
    page.locator(".version", has_text=f"version {int(seq or 0) + 1} / {last}").wait_for()
    page.click("button[data-key=rp-prev]")
    page.locator(".version", has_text=f"version {seq} / {last}").wait_for()
    shot(page, "replay_middle")

    # a reload opens the same step
    page.reload()
    page.locator(".version", has_text=f"version {seq} / {last}").wait_for()
    expect(page.locator(".ttr-map .route.claimed")).to_have_count(1)


def test_the_live_page_links_to_the_replay_and_shows_the_final_score(
    pages: Pages, finished_game: dict[str, Any], shot: Callable[[Any, str], Path]
) -> None:
    gid = finished_game["id"]
    page = pages.open(f"#game={gid}&token={finished_game['seats'][0]['token']}")
    page.locator(".result .score-table").wait_for()
    assert page.locator(".banner").inner_text().startswith("The game is over")
    claimed = len(finished_game["final"]["claimed"])
    expect(page.locator(".ttr-map .route.claimed")).to_have_count(claimed)
    shot(page, "ttr_finished_seat")
    page.click("a[data-key=to-replay]")
    page.locator("#replay-slider").wait_for()
    assert "token=" in page.url and "replay" in page.url, "the seat keeps its token in the replay"
    assert page.locator(".hand").count() == 1, "the seat's own cards show in its replay"


def test_dragging_the_slider_with_the_mouse_moves_through_the_game(
    pages: Pages, finished_game: dict[str, Any]
) -> None:
    gid, last = finished_game["id"], finished_game["final"]["version"]
    page = pages.open(f"#game={gid}&replay&at=1")
    slider = page.locator("#replay-slider")
    page.locator(".version", has_text=f"version 1 / {last}").wait_for()
    box = slider.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 2, y)
    page.mouse.down()
    for fraction in (0.2, 0.4, 0.6):  # the board redraws under the moving pointer
        page.mouse.move(box["x"] + box["width"] * fraction, y, steps=4)
        page.wait_for_timeout(150)
    page.mouse.move(box["x"] + box["width"] - 2, y, steps=4)
    page.mouse.up()
    page.locator(".version", has_text=f"version {last} / {last}").wait_for()
    page.locator(".result .score-table").wait_for()
