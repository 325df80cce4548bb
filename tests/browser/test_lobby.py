"""The lobby in a real browser: create games, seat links in the URL fragment,
the list of recent games, phone width."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import Pages, Server

pytestmark = pytest.mark.browser


def create_in_lobby(page: Any, game_type: str, names: list[str], seed: str | None = None) -> dict[str, Any]:
    """Fill the lobby form and create the game; the seat and spectator links it shows."""
    page.check(f"#type-{game_type}")
    inputs = page.locator("ol.names input")
    while inputs.count() < len(names):
        page.click("button[data-key=add-player]")
    for i, name in enumerate(names):
        inputs.nth(i).fill(name)
    if seed is not None:
        page.click("details.more summary")
        page.fill("#seed", seed)
        page.check("#open-deal")  # dealt from the seed alone, so the test knows the deal
    page.click("button[data-key=create]")
    page.wait_for_selector(".created")
    seats = [page.get_attribute(f"a[data-role=seat-{i}]", "href") for i in range(len(names))]
    spectator = page.get_attribute("a[data-role=spectator]", "href")
    match = re.search(r"#game=([0-9a-f]+)$", spectator or "")
    assert match, spectator
    return {"id": match.group(1), "seats": seats, "spectator": spectator}


def assert_fits(page: Any, width: int) -> None:
    """Nothing on the page reaches past ``width`` pixels (no sideways scrolling), and a game's board,
    when there is one, is scaled to fit whole, not scrolled sideways in a box (issue 37)."""
    widest = page.evaluate("document.documentElement.scrollWidth")
    assert widest <= width, f"the page is {widest}px wide, more than {width}px"
    boxes = page.evaluate("""[...document.querySelectorAll('.board-area, .board-area .map')].map((e) => {
        const r = e.getBoundingClientRect();
        return {cls: e.className.baseVal ?? e.className, left: r.left, right: r.right,
                scroll: e.scrollWidth, client: e.clientWidth};
    })""")
    for box in boxes:
        assert box["left"] >= 0 and box["right"] <= width, f"{box['cls']} reaches past {width}px: {box}"
        assert box["scroll"] <= box["client"] + 1, f"{box['cls']} scrolls sideways: {box}"


def test_lobby_creates_a_game_and_hands_out_one_link_per_seat(
    pages: Pages, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    page = pages.open()
    page.wait_for_selector("#type-ttr-sf")
    game = create_in_lobby(page, "ttr-sf", ["Ada", "Bo", "Cy"])
    assert len(game["seats"]) == 3
    for seat, link in enumerate(game["seats"]):
        parts = urlsplit(link)
        assert parts.query == "", "a seat token must never travel in a query string"
        assert re.fullmatch(rf"game={game['id']}&token=st_{game['id']}_[A-Za-z0-9_-]+", parts.fragment), link
        view = server.api.view(game["id"], token=parts.fragment.split("token=")[1])
        assert view["me"]["seat"] == seat
    assert "token" not in game["spectator"]
    # the new game heads the list of recent games, with a watch and a replay link
    row = page.locator(f"tr[data-game='{game['id']}']")
    row.wait_for()
    assert "Ada, Bo, Cy" in row.inner_text()
    assert row.locator("a", has_text="Watch").get_attribute("href") == f"#game={game['id']}"
    assert row.locator("a", has_text="Replay").get_attribute("href") == f"#game={game['id']}&replay"
    shot(page, "lobby_created")
    # no request the page made carries a token in its URL
    assert not [url for _, url, _ in pages.requests if "st_" in url]


def test_lobby_keeps_player_counts_within_the_game_type(pages: Pages) -> None:
    page = pages.open()
    page.wait_for_selector("#type-cable-car")
    page.check("#type-ttr-sf")
    add = page.locator("button[data-key=add-player]")
    while add.is_enabled():
        add.click()
    assert page.locator("ol.names input").count() == 4  # Ticket to Ride seats at most 4
    page.check("#type-cable-car")
    while add.is_enabled():
        add.click()
    assert page.locator("ol.names input").count() == 6  # cable cars at most 6
    page.check("#type-ttr-sf")
    assert page.locator("ol.names input").count() == 4


def test_a_refused_creation_shows_the_problem_detail(pages: Pages) -> None:
    page = pages.open()
    page.wait_for_selector("#type-ttr-sf")
    page.locator("ol.names input").nth(0).fill("")
    page.locator("ol.names input").nth(0).evaluate("el => el.removeAttribute('required')")
    page.click("button[data-key=create]")
    problem = page.locator(".new-game .problem")
    problem.wait_for()
    assert problem.inner_text().strip() != ""


def test_the_lobby_fits_a_phone(browser: Any, server: Server, shot: Callable[[Any, str], Path]) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.base)
        page.wait_for_selector("#type-ttr-sf")
        create_in_lobby(page, "cable-car", ["Ada", "Bo"])
        assert_fits(page, 390)
        shot(page, "lobby_phone")
    finally:
        context.close()


def test_the_lobby_offers_exactly_the_game_types_the_api_lists(browser: Any, server: Server) -> None:
    """Titles and player ranges come from ``GET /v1/game-types``: a type the
    server answers with (here one added on the way) appears, with its range."""
    served = server.api.call("GET", "/v1/game-types")
    stones = {**served["types"][0], "type": "stones", "title": "Stones", "min_players": 2, "max_players": 2}
    listed = {"types": [*served["types"], stones]}
    context = browser.new_context()
    try:
        context.route("**/v1/game-types", lambda route: route.fulfill(json=listed))
        page = context.new_page()
        page.goto(server.base)
        page.wait_for_selector("#type-stones")
        labels = page.locator("fieldset.types label").all_inner_texts()
        assert labels == [f"{t['title']} {t['min_players']}–{t['max_players']} players" for t in listed["types"]]
        assert "Stones, in the browser" in page.locator(".intro p").inner_text()
        page.check("#type-stones")
        assert page.locator("ol.names input").count() == 2
        assert page.locator("button[data-key=add-player]").is_disabled()
        options = page.locator("#filter-type option").all_inner_texts()
        assert options == ["All games", *(t["title"] for t in listed["types"])]
    finally:
        context.close()


def test_without_the_game_types_the_lobby_says_so_and_creates_nothing(browser: Any, server: Server) -> None:
    context = browser.new_context()
    try:
        context.route("**/v1/game-types", lambda route: route.fulfill(
            status=503, content_type="application/problem+json",
            json={"type": "about:blank", "title": "Unavailable", "status": 503, "code": "unavailable",
                  "detail": "the event store cannot be reached"}))
        page = context.new_page()
        page.goto(server.base)
        problem = page.locator(".new-game .problem")
        problem.wait_for()
        assert "the event store cannot be reached" in problem.inner_text()
        assert page.locator("button[data-key=create]").is_disabled()
        assert page.locator("fieldset.types input").count() == 0
    finally:
        context.close()


def test_play_against_the_computer(pages: Pages, server: Server) -> None:
    """One click gives every seat but the first to a server bot; the created
    panel has one seat link (yours) and says who plays the others; the bot
    runner `cablecar serve` started plays their setup choices."""
    page = pages.open()
    page.wait_for_selector("#type-ttr-sf")
    page.check("#type-ttr-sf")
    page.click("button[data-key=add-player]")
    page.click("button[data-key=play-computer]")
    assert [page.locator("ol.names select").nth(i).input_value() for i in range(3)] == ["", "planner", "planner"]
    page.locator("ol.names select").nth(2).select_option("mcts")
    page.click("button[data-key=create]")
    page.wait_for_selector(".created")
    assert page.locator("a[data-role=seat-0]").count() == 1
    assert page.locator("a[data-role=seat-1]").count() == 0
    assert "Computer: strongest (search)" in page.locator("tr[data-role=bot-2]").inner_text()
    spectator = page.get_attribute("a[data-role=spectator]", "href") or ""
    game_id = spectator.rsplit("=", 1)[-1]
    view = server.api.view(game_id)
    assert [p["bot"] for p in view["players"]] == [None, "planner", "mcts"]
    deadline = time.monotonic() + 20
    while server.api.view(game_id)["active_seats"] != [0] and time.monotonic() < deadline:
        time.sleep(0.2)  # the bots keep their tickets; the person's choice is left
    assert server.api.view(game_id)["active_seats"] == [0]
    row = page.locator(f"tr[data-game='{game_id}']")
    row.wait_for()
    assert "Bo (computer)" in row.inner_text()
