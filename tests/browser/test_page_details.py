"""The page's details a first-day user tripped over (issue 55), each in a real browser: on a phone the
players' table is whole and the map's names are readable; an empty face-up slot is an empty place;
a replay shows nobody to act before the opening deal is over; a finished ride reads as arrived; the
Resign button stands beside the page's links."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Pages, Server, expect
from tests.browser.ride_plan import plan_ride
from tests.browser.test_lobby import assert_fits

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page on a phone's screen (375 px wide, touch)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page
        assert errors == []
    finally:
        context.close()


def _cut(page: Any, selector: str) -> list[str]:
    """The cells of ``selector``'s tables whose content is wider than what is shown of it (or the
    table wider than its box)."""
    return page.evaluate(
        """(selector) => {
          const cut = [];
          for (const table of document.querySelectorAll(selector)) {
            const box = table.parentElement.getBoundingClientRect();
            for (const cell of table.querySelectorAll("th, td")) {
              const r = cell.getBoundingClientRect();
              if (r.width === 0) continue;  // a heading kept for screen readers only
              if (r.right > box.right + 1 || r.left < box.left - 1 || cell.scrollWidth > cell.clientWidth + 1) {
                cut.push(cell.textContent);
              }
            }
          }
          return cut;
        }""",
        selector,
    )


def test_on_a_phone_the_players_table_is_whole_and_each_value_named(
    phone: Any, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    game = server.api.create("ttr-sf", ["Southwark", "Bo", "Cy", "Di"], seed="browser-phone-players")
    phone.goto(f"{server.base}#game={game['id']}&token={game['seats'][0]['token']}")
    phone.wait_for_selector(".action.keep")
    assert_fits(phone, PHONE["width"])
    assert _cut(phone, ".players-table") == [], "nothing of the players' table is cut or scrolled out of sight"
    row = phone.locator(".players-table tr[data-seat='0']")
    named = row.evaluate("""(tr) => [...tr.querySelectorAll("td")].map(
        (td) => getComputedStyle(td, "::before").content.replace(/"/g, "").trim())""")
    assert named == ["Route points", "Cars", "Cards", "Tickets", "Souvenirs"], "each value named beside it on a phone"
    expect(row.locator(".name")).to_have_text("Southwark")
    shot(phone, "ttr_phone_players")


def test_a_cable_car_players_table_is_whole_on_a_phone(phone: Any, server: Server) -> None:
    game = server.api.create("cable-car", ["Southwark", "Bo", "Cy", "Di"], seed="browser-phone-cc-players")
    phone.goto(f"{server.base}#game={game['id']}")
    phone.wait_for_selector(".players-table")
    assert_fits(phone, PHONE["width"])
    assert _cut(phone, ".players-table") == []


def _font_px(page: Any, selector: str) -> list[float]:
    """The height on the screen of each shown text of ``selector`` (its font size times the map's scale)."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter((t) => getComputedStyle(t).display !== "none")
            .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)""",
        selector,
    )


def test_on_a_phone_the_map_shows_no_unreadable_names_and_a_tapped_location_names_itself(
    phone: Any, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-phone-names")
    phone.goto(f"{server.base}#game={game['id']}")
    phone.wait_for_selector(".ttr-map .location")
    # drawn at the map's scale the names would be ~4 px high: none is shown that small
    assert [px for px in _font_px(phone, ".ttr-map .loc-name") if px < 7] == []
    expect(phone.locator(".names-hint")).to_be_visible()
    presidio = phone.locator(".location[data-location=presidio]")
    presidio.tap()
    callout = presidio.locator(".loc-callout")
    expect(callout).to_be_visible()
    expect(callout).to_have_text("Presidio")
    assert min(_font_px(phone, ".ttr-map .location[data-location=presidio] .loc-callout")) >= 12
    shot(phone, "ttr_phone_name_tapped")


def test_on_a_desktop_every_name_is_on_the_map(pages: Pages, server: Server) -> None:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-desktop-names")
    page = pages.open(f"#game={game['id']}")
    page.wait_for_selector(".ttr-map .location")
    sizes = _font_px(page, ".ttr-map .loc-name")
    assert len(sizes) == page.locator(".ttr-map .location").count() and min(sizes) >= 7
    expect(page.locator(".names-hint")).to_be_hidden()


def test_a_replay_shows_empty_slots_and_nobody_to_act_until_the_deal_is_over(pages: Pages, server: Server) -> None:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-replay-deal")
    gid = game["id"]
    dealt = next(e["seq"] for e in server.api.call("GET", f"/v1/games/{gid}/events")["events"] if e["type"] == "tickets_dealt")
    page = pages.open(f"#game={gid}&replay")
    page.locator(".version", has_text=f"version 1 / {dealt}").wait_for()
    # event 1: nothing dealt yet; the half-made state names a seat (the one to place souvenirs), the page does not
    assert server.api.call("GET", f"/v1/games/{gid}?at=1")["active_seats"]
    banner = page.locator(".banner")
    expect(banner).not_to_contain_text("To act")
    expect(banner).to_contain_text("dealt")
    assert page.locator(".players-table .to-act").count() == 0
    # the face-up row is five empty places, not five grey cards
    expect(page.locator(".face-up .empty-slot")).to_have_count(5)
    assert page.locator(".face-up .swatch", has_text="N").count() == 0
    assert "null" not in page.locator(".face-up").inner_text()
    # once the deal is over, the seats to act are named
    page.locator("button[data-key=rp-last]").click()
    page.locator(".version", has_text=f"version {dealt} / {dealt}").wait_for()
    expect(banner).to_contain_text("To act: Ada, Bo")
    expect(page.locator(".face-up .empty-slot")).to_have_count(0)


def _ride_ready(server: Server) -> dict[str, Any]:
    """A cable-car game, played through the API, in which seat 0 may start its ride."""
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
    return game


def test_a_finished_ride_reads_as_arrived(pages: Pages, server: Server) -> None:
    game = _ride_ready(server)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    ride = next(a for a in server.api.legal(gid, tokens[0], limit=10) if a["type"] == "start_ride")
    server.api.act(gid, tokens[0], ride)
    for _ in range(400):
        view = server.api.view(gid)
        if view["status"] == "finished":
            break
        seat = view["active_seats"][0]
        action = {"type": "roll"} if seat == 0 else server.api.legal(gid, tokens[1], limit=1)[0]
        server.api.act(gid, tokens[seat], action)
    assert view["status"] == "finished" and view["result"]["winners"] == [0], view["result"]
    page = pages.open(f"#game={gid}")
    row = page.locator(".rides .ride[data-seat='0']")
    row.wait_for()
    expect(row).to_contain_text("arrived")
    expect(row).not_to_contain_text("next stop")
    expect(page.locator(".players-table tr[data-seat='0']")).to_contain_text("arrived")


@pytest.mark.parametrize("viewport", [{"width": 1360, "height": 940}, PHONE])
def test_the_resign_button_stands_beside_the_pages_links(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-resign-row")
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.goto(f"{server.base}#game={game['id']}&token={game['seats'][0]['token']}")
        page.wait_for_selector(".action.keep")  # the page has its legal actions: drawn for the last time
        middles = page.evaluate("""() => ["[data-key=to-replay]", "button[data-key=resign]"].map((key) => {
            const r = document.querySelector(key).getBoundingClientRect();
            return r.top + r.height / 2;
        })""")
        assert abs(middles[0] - middles[1]) < 4, f"Resign… is on a row of its own: {middles}"
    finally:
        context.close()
