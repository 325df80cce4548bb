"""San Francisco cable cars in a real browser: two seats lay tiles by clicking
(the choice is built from the paged legal-action list) while a spectator page
follows live."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import WAIT_MS, Pages, Server, expect
from tests.browser.ride_plan import plan_ride
from tests.browser.test_lobby import assert_fits, create_in_lobby

pytestmark = pytest.mark.browser


#: The tiles on the board (not the previewed ones).
LAID = ".cc-board .tile:not(.preview)"
#: A square with listed tile choices (not one that later pages may fill).
CHOICE = ".cc-board .square.selectable:not(.maybe)"


#: A square the page has not asked about yet (``?square=R,C``): later pages may still fill it.
MAYBE = ".cc-board .square.maybe"


def wait_until_every_square_is_asked(page: Any) -> None:
    """Wait until the page has asked about every square (none is ``.maybe`` any more), for as long as
    it keeps getting answers: it asks a few squares at a time, one request each, so a loaded machine
    takes longer, not for ever.  Fails when no square is answered within WAIT_MS."""
    while (left := page.locator(MAYBE).count()) > 0:
        try:
            page.wait_for_function("([sel, n]) => document.querySelectorAll(sel).length < n",
                                   arg=[MAYBE, left], polling=100, timeout=WAIT_MS)
        except Exception as e:  # playwright's TimeoutError
            raise AssertionError(f"{left} squares still not asked about, none answered in {WAIT_MS} ms") from e


def choose_square_and_tile(page: Any, step: str) -> dict[str, str]:
    """Open the first highlighted square and pick its first tile; what was picked."""
    where = page.locator(CHOICE).first.get_attribute("data-square") or ""
    page.locator(f"{CHOICE}[data-square='{where}']").click()
    option = page.locator(".placement-options button.option").first
    tile = option.get_attribute("data-tile") or ""
    option.click()
    page.locator(f".chosen li:has(.order-chip:text-is('{step}'))").wait_for()
    return {"square": where, "tile": tile}


def lay_two_tiles(page: Any, shot: Callable[[Any, str], Path] | None = None) -> list[dict[str, str]]:
    """Lay two tiles by clicking: first square and tile, then second square and tile."""
    page.locator(".banner", has_text="Your turn").wait_for()
    page.locator(CHOICE).first.wait_for()
    first = choose_square_and_tile(page, "1")
    assert page.locator(".cc-board .tile.preview").count() == 1, "the first tile is previewed"
    page.locator(CHOICE).first.wait_for()
    second = choose_square_and_tile(page, "2")
    assert page.locator(".cc-board .tile.preview").count() == 2, "both tiles are previewed"
    if shot is not None:
        shot(page, "cablecar_preview")
    page.click("button[data-key=lay]")
    return [first, second]


def test_two_seats_lay_tiles_by_clicking_and_a_spectator_follows_live(
    pages: Pages, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    lobby = pages.open()
    lobby.wait_for_selector("#type-cable-car")
    game = create_in_lobby(lobby, "cable-car", ["Ada", "Bo"], seed="browser-cable-car")
    ada, bo = pages.open(game["seats"][0]), pages.open(game["seats"][1])
    watcher = pages.open(game["spectator"])
    for page in (ada, bo, watcher):
        page.wait_for_selector(".cc-board .square")
    watcher.evaluate("window.__same_page = true")
    assert ada.locator(".me .stops li").count() == 3, "a seat sees its own route card"
    assert watcher.locator(".me").count() == 0, "a spectator sees no secret"
    assert bo.locator(".cc-board .square.selectable").count() == 0, "only the seat to play gets choices"

    occupied: set[str] = set()
    for turn, (page, name) in enumerate([(ada, "Ada"), (bo, "Bo"), (ada, "Ada")]):
        placed = lay_two_tiles(page, shot if turn == 0 else None)
        occupied |= {p["square"] for p in placed}  # an exchange replaces a tile
        expect(watcher.locator(LAID)).to_have_count(len(occupied))
        for p in placed:
            assert watcher.locator(f".cc-board .square[data-square='{p['square']}'] .tile").count() == 1
        last = watcher.locator(".events .event").last
        last.wait_for()
        assert any(name in t for t in watcher.locator(".events .event").all_inner_texts()[-4:])

    # every seat page shows the same board as the spectator
    for page in (ada, bo):
        expect(page.locator(LAID)).to_have_count(len(occupied))
    assert watcher.evaluate("window.__same_page") is True
    bo.locator(CHOICE).first.wait_for()
    shot(ada, "cablecar_seat_ada")
    shot(bo, "cablecar_seat_bo")
    shot(watcher, "cablecar_spectator")


def test_the_whole_board_is_highlighted_from_the_start_and_a_far_square_opens_at_once(
    pages: Pages, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    """Issue 37: the first pages of an opening's list reach only the first rows, yet every square a first
    tile may go on is highlighted (asked square by square), and one far down the board opens its tiles
    without paging through the list to it."""
    game = server.api.create("cable-car", ["Ada", "Bo"], seed="browser-cable-car-whole-board")
    token = game["seats"][0]["token"]
    legal = set()
    for row in range(1, 13):
        for col in range(1, 13):
            page_ = server.api.call("GET", f"/v1/games/{game['id']}/legal-actions?square={row},{col}&limit=1", token=token)
            if page_["total"]:
                legal.add(f"{row},{col}")
    assert {"12,12", "12,1"} & legal, "the opening has choices on the last row"
    page = pages.open(f"#game={game['id']}&token={token}")
    page.locator(CHOICE).first.wait_for()
    wait_until_every_square_is_asked(page)
    highlighted = {e.get_attribute("data-square") for e in page.locator(CHOICE).all()}
    assert highlighted == legal
    assert "Load more" in page.locator(".progress-row").inner_text(), "the pages themselves reached far less"
    shot(page, "cablecar_whole_board")
    far = max(legal, key=lambda k: tuple(map(int, k.split(","))))
    page.locator(f"{CHOICE}[data-square='{far}']").click()
    page.locator(".placement-options button.option").first.wait_for(timeout=5000)
    page.locator(".placement-options button.option").first.click()
    page.locator(".chosen li:has(.order-chip:text-is('1'))").wait_for()
    choose_square_and_tile(page, "2")
    page.click("button[data-key=lay]")
    page.locator(f".cc-board .square[data-square='{far}'] .tile:not(.preview)").wait_for()


def test_the_cable_car_table_fits_a_phone_and_is_keyboard_usable(
    browser: Any, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    game = server.api.create("cable-car", ["Ada", "Bo", "Cy"], seed="browser-cable-car-phone")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{server.base}#game={game['id']}&token={game['seats'][0]['token']}")
        page.locator(CHOICE).first.wait_for()
        assert_fits(page, 390)
        # keyboard only: a highlighted square takes the focus; Enter opens it, Enter picks a tile
        page.locator(CHOICE).first.focus()
        page.keyboard.press("Enter")
        page.locator(".placement-options button.option").first.wait_for()
        focused = page.evaluate("document.activeElement.classList.contains('option')")
        assert focused, "the first tile choice takes the focus"
        page.keyboard.press("Enter")
        page.locator(".cc-board .tile.preview").wait_for()
        shot(page, "cablecar_phone")
    finally:
        context.close()


@pytest.fixture(scope="module")
def ride_ready_game(server: Server) -> dict[str, Any]:
    """A real cable-car game, played through the API, in which seat 0 may start its ride."""
    names = ["Ada", "Bo"]
    for attempt in range(10):
        seed = f"browser-ride-{attempt}"
        moves = plan_ride(names, seed)
        if moves is not None:
            break
    else:
        raise AssertionError("no seed gave a network to ride on")
    game = server.api.create("cable-car", names, seed=seed)
    tokens = [s["token"] for s in game["seats"]]
    for seat, action in moves:
        server.api.act(game["id"], tokens[seat], action)
    legal = server.api.legal(game["id"], tokens[0], limit=10)
    assert any(a["type"] == "start_ride" for a in legal), legal[:3]
    return game


def test_a_seat_starts_its_ride_and_rolls_by_clicking(
    pages: Pages, server: Server, ride_ready_game: dict[str, Any], shot: Callable[[Any, str], Path]
) -> None:
    game = ride_ready_game
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    rider = pages.open(f"#game={gid}&token={tokens[0]}")
    watcher = pages.open(f"#game={gid}")
    rider.locator("button[data-key^=ride-]").first.wait_for()
    assert rider.locator("button[data-key^=ride-]").count() == 2, "a ride may start from either terminal"
    assert watcher.locator(".players-table tr[data-seat='0']").inner_text().endswith("secret")
    rider.locator("button[data-key^=ride-]").first.click()
    watcher.locator(".cc-board .tram[data-seat='0']").wait_for()
    watcher.locator(".cc-board .ride-path").wait_for()
    assert "line" in watcher.locator(".players-table tr[data-seat='0'] td").last.inner_text()

    rolls = 0
    for _ in range(12):
        if rolls == 3 or server.api.view(gid)["status"] == "finished":
            break
        view = server.api.view(gid)
        if view["active_seats"] == [0]:
            roll = rider.locator("button[data-key=roll]")
            roll.wait_for()
            before = len(rider.locator(".events .event").all())
            roll.click()
            expect(rider.locator(".events .event")).not_to_have_count(before)
            rolls += 1
        else:
            server.api.act(gid, tokens[1], server.api.legal(gid, tokens[1], limit=1)[0])
    assert rolls >= 1
    ride = watcher.locator(".rides .ride[data-seat='0']")
    expect(ride.locator(".die")).to_have_text(re.compile(r"^[1-4H]$"))
    assert "space" in ride.inner_text()
    assert any("rolled" in t for t in rider.locator(".events .event").all_inner_texts())
    expect(watcher.locator(".events .event", has_text="rolled")).to_have_count(rolls)
    shot(rider, "cablecar_ride_seat")
    shot(watcher, "cablecar_ride_spectator")


def test_while_the_pile_holds_tiles_a_riders_open_hand_is_not_drawn_from(
    pages: Pages, server: Server, ride_ready_game: dict[str, Any], shot: Callable[[Any, str], Path]
) -> None:
    """cable-car/4 (the rulebook): the others take from a rider's open hand only once the pile
    is empty, so laying next to a rider draws from the pile and offers no draw buttons."""
    game = ride_ready_game
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    if not server.api.view(gid)["players"][0]["riding"]:  # when run on its own
        ride = next(a for a in server.api.legal(gid, tokens[0], limit=10) if a["type"] == "start_ride")
        server.api.act(gid, tokens[0], ride)
    if server.api.view(gid)["active_seats"] == [0]:
        server.api.act(gid, tokens[0], {"type": "roll"})
    before = server.api.view(gid)
    assert before["active_seats"] == [1] and before["pile_count"] > 0
    page = pages.open(f"#game={gid}&token={tokens[1]}")
    page.locator(".action").wait_for()
    server.api.act(gid, tokens[1], server.api.legal(gid, tokens[1], limit=1)[0])  # lay two tiles
    after = server.api.view(gid)
    assert after["active_seats"] == [0], "the draw was automatic: the turn is over"
    assert after["players"][0]["hand"] == before["players"][0]["hand"]
    assert after["pile_count"] < before["pile_count"]
    assert page.locator("button[data-key^=draw-]").count() == 0
    shot(page, "cablecar_draw_from_pile")
