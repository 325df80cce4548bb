"""The search bot's own default policy (bots/ttr_policy.py) differs from the
planner where the duels measured it gains: paths along long routes, no late ticket draws."""

from __future__ import annotations

import random

from bots import ttr_planner, ttr_policy
from bots.ttr_planner import Situation
from domain.ttr.actions import DrawCard, DrawTickets
from domain.ttr.board import load_board

BOARD = load_board()


def situation(tickets: list[str], claimed: dict[str, int] | None = None, cars: int = 20) -> Situation:
    """Seat 0 of 2 on a turn start, no cards in hand, a full face-up row."""
    return Situation(
        seat=0, players=2, phase="turn_start", hand=[0] * 7, cars=[cars, 20], tickets=tickets, pending=[],
        souvenirs=set(), claimed=claimed or {}, face_up=["blue", "green", "black", "purple", "red"],
        deck_count=30, tickets_left=10, stacks={}, set_aside=[], final_round=False,
    )


def points(routes: list) -> int:  # type: ignore[type-arg]
    return sum(BOARD.route_points[r.length] for r in routes)


def test_the_policy_joins_a_ticket_along_routes_that_score_more_per_car() -> None:
    # Golden Gate Bridge - The Embarcadero: the planner's shortest chain is six short routes
    sit = situation(["T01"])
    planner, done_p = ttr_planner.plan_routes(sit, sit.tickets)
    policy, done = ttr_policy.plan_routes(sit, sit.tickets)
    assert done == done_p == ["T01"]
    assert sum(r.length for r in policy) <= 20
    assert points(policy) / sum(r.length for r in policy) > points(planner) / sum(r.length for r in planner)
    assert points(policy) >= 2 * points(planner)
    # the plan does join the ticket's two ends
    ends = {BOARD.tickets_by_id["T01"].a, BOARD.tickets_by_id["T01"].b}
    touched = [loc for r in policy for loc in (r.a, r.b)]
    assert ends <= set(touched)


def test_the_policy_draws_no_more_tickets_once_its_plan_is_done() -> None:
    # Fisherman's Wharf - Financial District joined already by the seat's routes: the planner
    # draws tickets, the policy cards
    mine = ("fishermans-wharf--north-beach", "north-beach--chinatown", "chinatown--financial-district")
    sit = situation(["T11"], dict.fromkeys(mine, 0), cars=16)
    assert ttr_policy.plan_routes(sit, sit.tickets) == ([], ["T11"])
    assert isinstance(ttr_planner.choose(sit, False, random.Random(1)), DrawTickets)
    assert isinstance(ttr_policy.choose(sit, False, random.Random(1)), DrawCard)
