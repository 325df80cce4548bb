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
