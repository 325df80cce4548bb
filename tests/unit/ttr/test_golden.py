"""A golden game: a fixed seed and move list whose final scores were worked
out by hand from the board (see the comments), plus a digest of every event
so that any change in behaviour (or in the seeded shuffles) is noticed.

Seed ``golden-2``, 2 players (Ada = seat 0 starts, Bo = seat 1).  Set-up:
stacks of 2 at alcatraz (cable-car-bell), golden-gate-bridge (surfboard),
the-embarcadero (sea-lion), sunset (key), potrero-hill (fortune-cookie);
Bo (the second player) places the set-aside bridge on presidio and sourdough
on marina as stacks of one.  Ada keeps T01 and T05, Bo keeps T19 and T23.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

from domain.core import Event, GameConfig, replay
from domain.ttr import GAME

SEED = "golden-2"

# (seat, action body) in the order played.
MOVES: list[tuple[int, dict[str, Any]]] = [
    (0, {"type": "keep_tickets", "tickets": ["T01", "T05"]}),
    (1, {"type": "place_souvenir_stack", "symbol": "bridge", "location": "presidio"}),
    (1, {"type": "place_souvenir_stack", "symbol": "sourdough", "location": "marina"}),
    (1, {"type": "keep_tickets", "tickets": ["T19", "T23"]}),
    (0, {"type": "claim_route", "route": "presidio--marina", "cards": {"green": 2}, "souvenir": "bridge"}),
    (1, {"type": "claim_route", "route": "fishermans-wharf--pier-39-a", "cards": {"orange": 1}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "claim_route", "route": "the-embarcadero--financial-district-a", "cards": {"blue": 1}}),
    (0, {"type": "claim_route", "route": "north-beach--chinatown", "cards": {"orange": 1}}),
    (1, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "claim_route", "route": "chinatown--union-square", "cards": {"green": 1}}),
    (1, {"type": "claim_route", "route": "marina--pacific-heights", "cards": {"black": 1, "ferry": 1}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (
        0,
        {"type": "claim_route", "route": "fishermans-wharf--north-beach", "cards": {"orange": 1, "ferry": 1}},
    ),
    (1, {"type": "claim_route", "route": "presidio--pacific-heights", "cards": {"blue": 1, "ferry": 1}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "claim_route", "route": "chinatown--financial-district", "cards": {"purple": 1}}),
    (1, {"type": "claim_route", "route": "marina--fort-mason", "cards": {"black": 1}}),
    (0, {"type": "claim_route", "route": "pacific-heights--japantown-a", "cards": {"green": 1}}),
    (1, {"type": "claim_route", "route": "coit-tower--north-beach", "cards": {"red": 1}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "claim_route", "route": "golden-gate-bridge--presidio", "cards": {"red": 1, "ferry": 1}}),
    (1, {"type": "claim_route", "route": "chinatown--nob-hill", "cards": {"black": 1}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "claim_route", "route": "painted-ladies--haight-ashbury", "cards": {"orange": 1}}),
    (0, {"type": "claim_route", "route": "japantown--painted-ladies", "cards": {"purple": 1}}),
    (1, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "claim_route", "route": "golden-gate-park--sunset", "cards": {"black": 1}}),
    (1, {"type": "claim_route", "route": "fort-mason--fishermans-wharf", "cards": {"red": 1, "ferry": 1}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "claim_route", "route": "marina--lombard-street", "cards": {"purple": 2}}),
    (1, {"type": "claim_route", "route": "twin-peaks--castro", "cards": {"orange": 1}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "claim_route", "route": "pier-39--alcatraz", "cards": {"black": 1, "ferry": 1}}),
    (1, {"type": "claim_route", "route": "nob-hill--union-square", "cards": {"blue": 1}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (1, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "claim_route", "route": "lombard-street--north-beach", "cards": {"blue": 1, "ferry": 1}}),
    (1, {"type": "claim_route", "route": "lombard-street--fishermans-wharf", "cards": {"red": 2}}),
    (0, {"type": "draw_card", "source": "deck"}),
    (0, {"type": "draw_card", "source": "deck"}),
]

# Hand computation (route table 1->1, 2->2, 3->4; souvenir table 2->1, 4->4):
#
# Ada (seat 0), 12 routes:
#   presidio--marina 2, north-beach--chinatown 1, chinatown--union-square 1,
#   fishermans-wharf--north-beach 2, chinatown--financial-district 1,
#   pacific-heights--japantown-a 1, golden-gate-bridge--presidio 2,
#   japantown--painted-ladies 1, golden-gate-park--sunset 1,
#   marina--lombard-street 2, pier-39--alcatraz 2, lombard-street--north-beach 2
#   -> 18 spaces (20 - 18 = 2 cars left: she starts the last round) and
#      2+1+1+2+1+1+2+1+1+2+2+2 = 18 route points.
#   T01 golden-gate-bridge -> the-embarcadero (11): none of her routes touches
#       the-embarcadero -> -11.
#   T05 presidio -> chinatown (7): presidio-marina-lombard-street-north-beach-
#       chinatown, all hers -> +7.                     tickets: -4
#   souvenirs: bridge (presidio--marina), surfboard (golden-gate-bridge),
#       key (sunset), cable-car-bell (alcatraz) = 4 symbols -> 4.
#   total 18 - 4 + 4 = 18, 1 completed ticket.
#
# Bo (seat 1), 12 routes:
#   fishermans-wharf--pier-39-a 1, the-embarcadero--financial-district-a 1,
#   marina--pacific-heights 2, presidio--pacific-heights 2, marina--fort-mason 1,
#   coit-tower--north-beach 1, chinatown--nob-hill 1,
#   painted-ladies--haight-ashbury 1, fort-mason--fishermans-wharf 2,
#   twin-peaks--castro 1, nob-hill--union-square 1, lombard-street--fishermans-wharf 2
#   -> 16 spaces (4 cars left) and 16 route points.
#   T19 nob-hill -> ocean-beach (9) and T23 ocean-beach -> financial-district (11):
#       none of his routes reaches ocean-beach -> -9 - 11 = -20.
#   souvenirs: sea-lion (the-embarcadero), sourdough (marina) = 2 symbols -> 1.
#   total 16 - 20 + 1 = -3, no completed ticket.
#
# Ada wins.  Last round: Ada ends her turn with 2 cars (move 59), Bo plays
# his final turn, then Ada hers; the game ends after move 62.
EXPECTED = {
    0: {"route_points": 18, "ticket_points": -4, "souvenir_points": 4, "total": 18, "completed_tickets": 1},
    1: {"route_points": 16, "ticket_points": -20, "souvenir_points": 1, "total": -3, "completed_tickets": 0},
}
EXPECTED_TICKETS = {
    0: [{"id": "T01", "completed": False, "points": -11}, {"id": "T05", "completed": True, "points": 7}],
    1: [{"id": "T19", "completed": False, "points": -9}, {"id": "T23", "completed": False, "points": -11}],
}


def play(rules_version: str | None = None) -> tuple[list[Event], Any]:
    """Set the game up and play every move (each must be accepted)."""
    events = GAME.setup(GameConfig(players=("Ada", "Bo"), seed=SEED, start_seat=0, rules_version=rules_version))
    state = replay(GAME, events)
    for seat, body in MOVES:
        assert GAME.status(state) != "finished"
        assert seat in GAME.active_seats(state)
        batch = GAME.decide(state, seat, GAME.parse_action(body))
        state = replay(GAME, batch, state)
        events += batch
    return events, state


def digest(events: list[Event], as_recorded_then: bool = False) -> str:
    """SHA-256 of the canonical JSON of every event (type, version, payload);
    ``as_recorded_then``: as the code before ``ttr-sf/3`` wrote them (no
    ``ends_turn``, one schema version lower: what the upcasters lift)."""
    records = [[e.TYPE, e.SCHEMA_VERSION, e.to_payload()] for e in events]
    if as_recorded_then:
        for record in records:
            if record[2].pop("ends_turn", None) is False:
                record[1] -= 1
    return hashlib.sha256(json.dumps(records, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_golden_game_final_scores_match_the_hand_computation() -> None:
    events, state = play()
    assert GAME.status(state) == "finished"
    result = GAME.result(state)
    assert result is not None
    assert result["winners"] == [0] and result["reason"] == "final_round"
    for breakdown in result["players"]:
        seat = breakdown["seat"]
        assert {k: breakdown[k] for k in EXPECTED[seat]} == EXPECTED[seat]
        assert breakdown["tickets"] == EXPECTED_TICKETS[seat]
    assert [p.cars for p in state.players] == [2, 4]
    assert events[-1].TYPE == "game_ended"
    assert [e.TYPE for e in events].count("last_round_started") == 1


def test_golden_game_events_are_byte_identical() -> None:
    first, _ = play()
    second, _ = play()
    assert digest(first) == digest(second) == GOLDEN_DIGEST


def test_the_golden_game_under_ttr_sf_3_is_the_game_recorded_then() -> None:
    # no row of three ferries stuck in this game: only the version in game_set_up differs (ttr-sf/4)
    v3, _ = play("ttr-sf/3")
    current, _ = play()
    assert digest(v3) == GOLDEN_DIGEST_V3
    assert [e.to_payload() for e in v3[1:]] == [e.to_payload() for e in current[1:]]


def test_the_golden_game_under_older_rules_is_the_game_recorded_then() -> None:
    # the ferry re-check changed nothing in this game: only the version in game_set_up differs
    v1, _ = play("ttr-sf/1")
    v2, _ = play("ttr-sf/2")
    assert digest(v1, as_recorded_then=True) == GOLDEN_DIGEST_V1
    assert digest(v2, as_recorded_then=True) == GOLDEN_DIGEST_V2
    assert [e.to_payload() for e in v1[1:]] == [e.to_payload() for e in v2[1:]]


def test_the_golden_game_records_its_turn_ends_in_the_moves_under_the_current_rules() -> None:
    old, old_state = play("ttr-sf/2")
    new, new_state = play()
    assert replace(old_state, rules=new_state.rules) == new_state
    carried = [e for e in new if getattr(e, "ends_turn", False)]
    assert len(new) == len(old) - len(carried) and "turn_ended" not in [e.TYPE for e in new]
    # the same events with each turn's end folded into the event before it
    folded = [e for e in old[1:] if e.TYPE != "turn_ended"]
    assert [replace(e, ends_turn=False) if e in carried else e for e in new[1:]] == folded


#: digest of the 73 events of the golden game (setup included)
GOLDEN_DIGEST = "2253bd9d486acac0625313c51b330a392fc7f75e37376456b51ff9bdcf6ad056"
#: the same game as recorded under ``ttr-sf/3`` (the same events but for the version)
GOLDEN_DIGEST_V3 = "5e51c329e10dca8719d9d0be2b16e6784ffaca877bb19155178121b1c7683775"
#: the same game as recorded under ``ttr-sf/2`` (114 events) and ``ttr-sf/1``
GOLDEN_DIGEST_V2 = "2fbbf4a8f67b45b7344ee00103309cb0c70c3043cc8fa1eeb854eb4f870106af"
GOLDEN_DIGEST_V1 = "2963269f6a9c9a06b9366150d26d3aea64b19bf131917f2d044463a45459db0a"
