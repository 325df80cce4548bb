"""Ticket to Ride: San Francisco in a real browser: two seats play by clicking
while a spectator page follows live."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Pages, Server, expect
from tests.browser.test_lobby import assert_fits, create_in_lobby

pytestmark = pytest.mark.browser


def wait_version(page: Any, version: int) -> None:
    """Wait until the page shows ``version`` (it follows the game by its event stream)."""
    page.locator(".version", has_text=f"version {version}").wait_for()


def current_version(server: Server, game_id: str) -> int:
    return int(server.api.view(game_id)["version"])


def wait_turn(page: Any) -> None:
    """Wait until the seat page says it is this seat's turn and its choices are loaded."""
    page.locator(".banner", has_text="Your turn").wait_for()
    page.locator(".action.turn").wait_for()


def draw_two_cards(page: Any) -> None:
    """Draw a card blind, then take the first face-up card that may still be taken."""
    wait_turn(page)
    page.click("button[data-key=deck]:enabled")
    page.locator(".card-button:enabled").first.wait_for()
    page.locator(".face-up button[data-slot]:enabled").first.click()


def test_two_seats_play_ticket_to_ride_by_clicking_and_a_spectator_follows_live(
    pages: Pages, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    lobby = pages.open()
    lobby.wait_for_selector("#type-ttr-sf")
    game = create_in_lobby(lobby, "ttr-sf", ["Ada", "Bo"], seed="browser-ttr")
    gid = game["id"]
    ada, bo = pages.open(game["seats"][0]), pages.open(game["seats"][1])
    watcher = pages.open(game["spectator"])
    for page in (ada, bo, watcher):
        page.wait_for_selector(".ttr-map .route")
    watcher.evaluate("window.__same_page = true")
    assert watcher.locator(".hand").count() == 0, "a spectator sees no hand"

    # --- setup: Ada keeps one ticket of two; Bo places both set-aside souvenir stacks on the map
    ada.wait_for_selector(".action.keep")
    assert ada.locator(".keep input[type=checkbox]").count() == 2
    ada.locator(".keep input[type=checkbox]").nth(1).uncheck()
    ada.click("button[data-key=keep-submit]")
    ada.locator(".tickets .ticket").first.wait_for()
    assert ada.locator(".tickets .ticket").count() == 1

    bo.wait_for_selector(".action.place")
    shot(bo, "ttr_setup_souvenirs")
    for placed in (6, 7):
        target = bo.locator(".location.placeable").first
        where = target.get_attribute("data-location")
        target.click()
        bo.locator(f".location[data-location='{where}'] .stack").wait_for()
        watcher.locator(f".location[data-location='{where}'] .stack").wait_for()
        assert watcher.locator(".ttr-map .stack").count() == placed
    bo.wait_for_selector(".action.keep")
    bo.click("button[data-key=keep-submit]")  # all dealt tickets are ticked at first
    bo.locator(".tickets .ticket").nth(1).wait_for()

    # --- play: Ada draws two cards; the face-up row and the hand counts change everywhere
    wait_turn(ada)
    hand_before = ada.locator(".players-table tr[data-seat='0'] td").nth(2).inner_text()
    draw_two_cards(ada)
    wait_turn(bo)
    version = current_version(server, gid)
    wait_version(watcher, version)
    assert watcher.locator(".players-table tr[data-seat='0'] td").nth(2).inner_text() == str(
        int(hand_before) + 2
    )

    # --- a refused action shows the server's problem detail (the body is altered on its way out)
    bo.click(".ttr-map .route.claimable")
    bo.locator(".claim-options button").first.wait_for()

    def tamper(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["cards"] = {"ferry": 0, **{c: 0 for c in body["cards"]}, "black": 9}
        route.continue_(post_data=json.dumps(body))

    bo.route("**/v1/games/*/actions", tamper)
    bo.locator(".claim-options button").first.click()
    problem = bo.locator(".game > .problem")
    problem.wait_for()
    assert problem.inner_text().strip()
    shot(bo, "ttr_refused")
    bo.unroute("**/v1/games/*/actions")
    assert current_version(server, gid) == version, "a refused action writes nothing"

    # --- Bo claims a route with the keyboard: focus it on the map, Enter, Enter on how to pay
    route = bo.locator(".ttr-map .route.claimable").first
    route_id = route.get_attribute("data-route")
    route.focus()
    bo.keyboard.press("Enter")
    expect(bo.locator(".claim-options button").first).to_be_focused()
    bo.keyboard.press("Enter")
    watcher.locator(f".route.claimed[data-route='{route_id}']").wait_for()
    bo.locator(f".route.claimed[data-route='{route_id}']").wait_for()
    expect(bo.locator(".game > .problem")).to_be_hidden()  # a later success clears the problem

    # --- a few more turns: Ada draws, Bo draws tickets and keeps them
    draw_two_cards(ada)
    wait_turn(bo)
    bo.click("button[data-key=draw-tickets]")
    bo.wait_for_selector(".action.keep")
    bo.click("button[data-key=keep-submit]")
    wait_turn(ada)
    wait_version(watcher, current_version(server, gid))
    assert watcher.evaluate("window.__same_page") is True, "the spectator page updated without reloading"

    shot(ada, "ttr_seat_ada")
    shot(bo, "ttr_seat_bo")
    shot(watcher, "ttr_spectator")


def test_the_ticket_to_ride_table_is_keyboard_usable_and_fits_a_phone(
    browser: Any, server: Server, shot: Callable[[Any, str], Path]
) -> None:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-ttr-phone")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{server.base}#game={game['id']}&token={game['seats'][1]['token']}")
        page.wait_for_selector(".action.place")
        assert_fits(page, 390)
        # keyboard only: focus a placeable location on the map and press Enter
        target = page.locator(".location.placeable").first
        where = target.get_attribute("data-location")
        target.focus()
        page.keyboard.press("Enter")
        page.locator(f".location[data-location='{where}'] .stack").wait_for()
        shot(page, "ttr_phone")
    finally:
        context.close()


def test_a_page_follows_the_event_stream_and_never_polls(pages: Pages, server: Server) -> None:
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-stream")
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    page = pages.open(f"#game={gid}&token={tokens[1]}")
    page.wait_for_selector(".action.keep")
    page.wait_for_timeout(300)  # let the first loads settle

    def game_reads() -> list[tuple[str, str, dict[str, str]]]:
        return [r for r in pages.requests if f"/v1/games/{gid}" in r[1] and "/events/stream" not in r[1]]

    before = len(game_reads())
    page.wait_for_timeout(2500)
    assert len(game_reads()) == before, "an idle page sends no requests: it waits on the event stream"

    # another seat acts: the stream wakes the page, which re-reads the view with its own token
    ada_keeps = server.api.legal(gid, tokens[0])[0]
    server.api.act(gid, tokens[0], ada_keeps)
    page.locator(".events .event", has_text="Ada kept").wait_for()
    reads = game_reads()[before:]
    assert reads, "the page re-read the game after the stream message"
    assert all(headers.get("authorization") == f"Bearer {tokens[1]}" for _, _, headers in reads)
    streams = [r for r in pages.requests if "/events/stream" in r[1]]
    assert streams and all("authorization" not in headers and "ticket=" in url for _, url, headers in streams), (
        "the stream is the seat's own, opened with a ticket"
    )
    assert not [url for _, url, _ in pages.requests if "st_" in url], "no token in any URL"
    assert "st_" not in server.log.read_text(), "no token in the server's log"


# What each location's name touches on the map, read from the page's own geometry: the points of the name's
# letters (its box, without the blank ascent and descent) hit-tested against routes, nodes and badges, the
# names' boxes against each other, and the map's edges.
NAME_CLASHES = """() => {
  const out = [];
  const map = document.querySelector(".ttr-map").getBoundingClientRect();
  const boxes = [];
  for (const text of document.querySelectorAll(".ttr-map .loc-name")) {
    const own = text.closest(".location");
    const r = text.getBoundingClientRect();
    boxes.push([own.dataset.location, r]);
    for (let x = r.left + 2; x <= r.right - 2; x += 2) {
      for (let y = r.top + 4; y <= r.bottom - 3; y += 2) {
        for (const e of document.elementsFromPoint(x, y)) {
          if (own.contains(e) && !e.closest(".stack")) continue;
          const hit = e.closest(".route") ? `route ${e.closest(".route").dataset.route}`
            : e.closest(".stack") ? `badge ${e.closest(".location").dataset.location}`
            : e.closest(".location") ? `location ${e.closest(".location").dataset.location}` : null;
          if (hit) out.push([own.dataset.location, hit]);
        }
      }
    }
    if (r.left < map.left || r.right > map.right || r.top < map.top || r.bottom > map.bottom) {
      out.push([own.dataset.location, "the map's edge"]);
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i];
      const [b, q] = boxes[j];
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom - 3, q.bottom - 3) - Math.max(p.top + 4, q.top + 4);
      if (w > 0 && h > 0) out.push([a, `name ${b}`]);
    }
  }
  return out;
}"""


def test_no_location_name_collides_at_1366_by_900(browser: Any, server: Server, shot: Callable[[Any, str], Path]) -> None:
    """Issue 37: at 1366x900 no name lies on another name, a node or a souvenir badge (Alcatraz's
    was under its badge, Chinatown's ran into the Financial District's) nor past the map's edge, and
    names keep off the routes: the one name with no free place near its node (the Financial District,
    amid five routes) may cross one route."""
    game = server.api.create("ttr-sf", ["Ada", "Bo"], seed="browser-ttr-labels")
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.base}#game={game['id']}")
        page.locator(".ttr-map .stack").first.wait_for()
        clashes = {(name, hit) for name, hit in page.evaluate(NAME_CLASHES)}
        shot(page, "ttr_names_1366")
    finally:
        context.close()
    assert not {c for c in clashes if not c[1].startswith("route ")}, sorted(clashes)
    crossing = {c for c in clashes if c[1].startswith("route ")}
    assert len(crossing) <= 1 and all(name == "financial-district" for name, _ in crossing), sorted(crossing)
