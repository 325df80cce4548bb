"""The page's pure modules, run in the browser itself: the URL fragment (where
tokens live) and the cable-car chooser built from paged legal actions."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Pages

pytestmark = pytest.mark.browser


def run(page: Any, module: str, body: str) -> Any:
    """Import ``web/<module>`` in the page and evaluate ``body`` with it bound to ``m``."""
    return page.evaluate(f"async () => {{ const m = await import('./web/{module}'); {body} }}")


def test_fragments_carry_the_game_token_and_replay_position(pages: Pages) -> None:
    page = pages.open()
    page.wait_for_selector(".lobby")
    parsed = run(
        page,
        "route.js",
        """return [
            m.parseFragment(""),
            m.parseFragment("#game=0123456789abcdef"),
            m.parseFragment("#game=0123456789abcdef&token=st_0123456789abcdef_a-b_c"),
            m.parseFragment("#game=0123456789abcdef&replay&at=12"),
            m.parseFragment("#game=../../etc&token=x"),
            m.fragment({id: "0123456789abcdef", token: "st_x", replay: true, at: 3}),
            m.fragment({id: "0123456789abcdef", replay: true}),
            m.fragment({id: "0123456789abcdef", at: 3}),
        ];""",
    )
    assert parsed[0] == {"page": "lobby"}
    assert parsed[1] == {"page": "game", "id": "0123456789abcdef", "token": None, "replay": False, "at": None}
    assert parsed[2]["token"] == "st_0123456789abcdef_a-b_c"
    assert parsed[3] == {"page": "game", "id": "0123456789abcdef", "token": None, "replay": True, "at": 12}
    assert parsed[4] == {"page": "lobby"}, "an id that is not an id is the lobby"
    assert parsed[5] == "#game=0123456789abcdef&token=st_x&replay&at=3"
    assert parsed[6] == "#game=0123456789abcdef&replay"
    assert parsed[7] == "#game=0123456789abcdef", "a position belongs to a replay only"


def test_the_tile_chooser_offers_only_listed_pairs_and_knows_what_later_pages_may_add(pages: Pages) -> None:
    page = pages.open()
    page.wait_for_selector(".lobby")
    out = run(
        page,
        "choices.js",
        """
        const p = (tile, row, col, rotation) => ({tile, row, col, rotation});
        const lay = (a, b) => ({type: "lay_tiles", placements: b ? [a, b] : [a]});
        const c = new m.PlacementChooser();
        c.add([
            {type: "start_ride", from: "Ocean Beach"},
            lay(p("curve", 1, 1, 1), p("straight", 1, 3, 0)),
            lay(p("curve", 1, 1, 1), p("straight", 2, 5, 1)),
            lay(p("straight", 1, 2, 0), p("curve", 3, 3, 2)),
        ], 6);
        const first = c.ids.get("curve:1:1:1");
        const edge = c.ids.get("straight:1:2:0");
        const seconds = [...c.secondSquares(first).keys()].sort();
        const before = {
            squares: [...c.firstSquares().keys()].sort(),
            seconds,
            listed: c.action(first, c.ids.get("straight:1:3:0")),
            unlisted: c.action(first, c.ids.get("curve:3:3:2")),
            single: c.action(first),
            others: c.others.map((a) => a.type),
            complete: c.complete,
            firstGrows: c.firstMayGrow(first),
            edgeGrows: c.firstMayGrow(edge),
            frontierSquare: c.squareMayGrow("1,2"),
            earlierSquare: c.squareMayGrow("1,1"),
            laterSquare: c.squareMayGrow("5,5"),
        };
        c.add([lay(p("straight", 1, 2, 0), p("curve", 4, 4, 0)), lay(p("curve", 6, 6, 3))], 6, true);
        return {
            before,
            after: {
                complete: c.complete,
                edgeSeconds: [...c.secondSquares(edge).keys()].sort(),
                single: c.action(c.ids.get("curve:6:6:3")),
                laterSquare: c.squareMayGrow("7,7"),
                edgeGrows: c.firstMayGrow(edge),
            },
        };
        """,
    )
    before, after = out["before"], out["after"]
    assert before["squares"] == ["1,1", "1,2"]
    assert before["seconds"] == ["1,3", "2,5"]
    assert before["listed"] == {
        "type": "lay_tiles",
        "placements": [
            {"tile": "curve", "row": 1, "col": 1, "rotation": 1},
            {"tile": "straight", "row": 1, "col": 3, "rotation": 0},
        ],
    }
    assert before["unlisted"] is None, "a pair the server did not list is never offered"
    assert before["single"] is None, "a tile alone only when listed alone"
    assert before["others"] == ["start_ride"]
    assert before["complete"] is False
    assert before["firstGrows"] is False and before["edgeGrows"] is True
    assert (
        before["frontierSquare"] is True
        and before["earlierSquare"] is False
        and before["laterSquare"] is True
    )
    assert after["complete"] is True
    assert after["edgeSeconds"] == ["3,3", "4,4"], "a first's partners gather over pages"
    assert after["single"]["placements"] == [{"tile": "curve", "row": 6, "col": 6, "rotation": 3}]
    assert after["laterSquare"] is False and after["edgeGrows"] is False, "nothing grows once the list ended"


def test_a_missing_game_says_so(pages: Pages) -> None:
    page = pages.open("#game=ffffffffffffffff")
    problem = page.locator(".problem[role=alert]")
    problem.wait_for()
    assert problem.inner_text().strip()
    assert page.locator("a", has_text="Back to the lobby").get_attribute("href") == "#"


def test_clocks_count_down_from_the_views_deadline_and_read_as_clock_faces(pages: Pages) -> None:
    page = pages.open()
    page.wait_for_selector(".lobby")
    out = run(
        page,
        "clocks.js",
        """
        const at = Date.parse("2026-01-01T12:00:00Z");
        // both seats run (a setup step): seat 0 has 30 s left, seat 1 20 s; seat 2 waits
        const view = {
            status: "setup",
            time_control: {kind: "clock", initial_seconds: 60, increment_seconds: 5, setup_seconds: 30},
            clocks: [
                {seat: 0, remaining_seconds: 30, running: true},
                {seat: 1, remaining_seconds: 20, running: true},
                {seat: 2, remaining_seconds: 45.5, running: false},
            ],
            deadline: new Date(at + 20000).toISOString(),
        };
        const live = new m.ClockSet(view, 0);
        const replayed = new m.ClockSet(view, 0, {live: false});
        const over = new m.ClockSet({...view, status: "cancelled"}, 0);
        const none = {status: "playing", time_control: {kind: "none"}, clocks: [], deadline: null};
        return {
            at5: [0, 1, 2].map((s) => live.remaining(s, at + 5000)),
            before: live.remaining(0, at - 3000),
            after: live.remaining(1, at + 25000),
            expired: live.expired(at + 21000),
            replayed: [replayed.remaining(0, at + 5000), replayed.running(0)],
            over: over.running(0),
            timed: [m.timed(view), m.timed(none), m.showsClocks(view), m.showsClocks({...view, status: "finished"})],
            faces: [0, 0.2, 8.2, 9.999, 59.5, 75, 600, 3725].map(m.formatClock),
            words: [
                m.describeTimeControl({kind: "none"}),
                m.describeTimeControl({kind: "per_turn", seconds: 60}),
                m.describeTimeControl({kind: "per_turn", seconds: 45, setup_seconds: 120}),
                m.describeTimeControl({kind: "clock", initial_seconds: 600, increment_seconds: 5}),
                m.describeTimeControl({kind: "clock", initial_seconds: 5400, increment_seconds: 0}),
            ],
            standings: [m.standingOf({}), m.standingOf({standing: "timed_out"})],
            badge: m.standingBadge({standing: "timed_out"}).textContent,
            noBadge: m.standingBadge({standing: "in"}),
        };
        """,
    )
    assert out["at5"] == [25, 15, 45.5], "running clocks count down together; a waiting one keeps its time"
    assert out["before"] == 30, "never more than the time left at the view's version (a slow browser clock)"
    assert out["after"] == 0, "never below zero"
    assert out["expired"] == [1]
    assert out["replayed"] == [30, False], "a replayed position shows its clocks standing still"
    assert out["over"] is False, "no clock runs once the game is over"
    assert out["timed"] == [True, False, True, False]
    assert out["faces"] == ["0:00", "0:01", "0:09", "0:10", "1:00", "1:15", "10:00", "1:02:05"]
    assert out["words"] == [
        "no time limit",
        "1 min per turn",
        "45 s per turn (setup 2 min)",
        "10 min clock + 5 s per turn",
        "1 h 30 min clock",
    ]
    assert out["standings"] == ["in", "timed_out"]
    assert out["badge"] == "timed out" and out["noBadge"] is None


def test_a_token_says_whether_the_link_is_a_seat_or_the_host(pages: Pages) -> None:
    page = pages.open()
    page.wait_for_selector(".lobby")
    kinds = run(
        page,
        "route.js",
        """return [
            m.tokenKind("st_0123456789abcdef_secret"),
            m.tokenKind("ht_0123456789abcdef_secret"),
            m.tokenKind("ot_x_secret"),
            m.tokenKind(null),
            m.parseFragment("#game=0123456789abcdef&token=ht_0123456789abcdef_a-b_c").token,
        ];""",
    )
    assert kinds == ["seat", "host", None, None, "ht_0123456789abcdef_a-b_c"]


def test_the_event_log_says_when_an_event_also_ended_the_turn(pages: Pages) -> None:
    page = pages.open()
    page.wait_for_selector(".lobby")
    lines = run(
        page,
        "eventlog.js",
        """
        const ttr = {type: "ttr-sf", names: ["Ada", "Bo"], board: null};
        const cc = {type: "cable-car", names: ["Ada", "Bo"], board: null};
        const drawn = {seat: 0, source: "deck", slot: null, card: "red"};
        return [
            m.describeEvent({type: "card_drawn", payload: {...drawn, ends_turn: true}}, ttr),
            m.describeEvent({type: "card_drawn", payload: {...drawn, ends_turn: false}}, ttr),
            m.describeEvent({type: "face_up_refilled", payload: {slot: 2, card: "blue", ends_turn: true}}, ttr),
            m.describeEvent({type: "turn_ended", payload: {seat: 1}}, ttr),
            m.describeEvent({type: "tiles_drawn", payload: {seat: 1, tiles: ["curve"], from_riders: [], ends_turn: true}}, cc),
            m.describeEvent({type: "turn_ended", payload: {seat: 1, next_seat: 0}}, cc),
        ];""",
    )
    assert lines == [
        "Ada drew red from the deck; Ada's turn ends",
        "Ada drew red from the deck",
        "Face-up slot 3 turned up: blue; the turn ends",
        "Bo's turn ends",
        "Bo drew 1 tile; Bo's turn ends",
        "Bo's turn ends; Ada is next",
    ]
