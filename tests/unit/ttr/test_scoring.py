"""Final scoring: route table, tickets by connectivity, souvenirs, winners."""

from __future__ import annotations

from domain.ttr import GAME
from domain.ttr.scoring import SeatScore, final_scores, rank, route_points, souvenir_points, winners
from domain.ttr.state import TtrState

from .helpers import crafted

# seat 0: presidio - marina - lombard-street - nob-hill - chinatown
SEAT0_ROUTES = (
    "presidio--marina",
    "marina--lombard-street",
    "lombard-street--nob-hill",
    "chinatown--nob-hill",
)
# seat 1: golden-gate-park - sunset - ocean-beach
SEAT1_ROUTES = ("golden-gate-park--sunset", "ocean-beach--sunset")


def scored_state() -> TtrState:
    claimed = {r: 0 for r in SEAT0_ROUTES} | {r: 1 for r in SEAT1_ROUTES}
    return crafted(
        claimed=claimed,
        tickets=[("T05", "T06"), ("T22",)],
        souvenirs=[("key", "bridge", "sourdough"), ()],
    )


def test_route_points_from_the_table() -> None:
    assert route_points(SEAT0_ROUTES) == 2 + 2 + 2 + 1
    assert route_points(SEAT1_ROUTES) == 1 + 2
    assert route_points(["golden-gate-bridge--fort-mason", "the-embarcadero--alcatraz"]) == 10 + 7


def test_souvenir_table() -> None:
    assert [souvenir_points(n) for n in range(8)] == [0, 0, 1, 2, 4, 6, 9, 12]


def test_tickets_count_by_connectivity_of_the_players_own_routes() -> None:
    scores = final_scores(scored_state())
    # seat 0: routes 7; T05 presidio-chinatown joined (+7), T06 presidio-sunset
    # not joined (-4); 3 symbols -> 2; total 12
    s0 = scores[0]
    assert (s0.route_points, s0.ticket_points, s0.souvenir_points, s0.total) == (7, 3, 2, 12)
    assert [(t.id, t.completed, t.points) for t in s0.tickets] == [("T05", True, 7), ("T06", False, -4)]
    assert s0.completed_tickets == 1
    # seat 1: routes 3; T22 japantown-sunset not joined (-4); total -1
    s1 = scores[1]
    assert (s1.route_points, s1.ticket_points, s1.souvenir_points, s1.total) == (3, -4, 0, -1)
    assert winners(scores, (None, None)) == (0,)


def test_another_players_route_does_not_complete_a_ticket() -> None:
    # T06 presidio-sunset: seat 0 holds presidio--golden-gate-park, seat 1 golden-gate-park--sunset
    state = crafted(
        claimed={"presidio--golden-gate-park": 0, "golden-gate-park--sunset": 1}, tickets=[("T06",), ("T06",)]
    )
    scores = final_scores(state)
    assert scores[0].tickets[0].completed is False and scores[1].tickets[0].completed is False


def _score(seat: int, total: int, completed: int) -> SeatScore:
    return SeatScore(seat, total, 0, 0, total, completed, ())


def test_winners_highest_total_then_more_completed_tickets_then_shared() -> None:
    assert winners([_score(0, 10, 0), _score(1, 12, 0)], (None, None)) == (1,)
    assert winners([_score(0, 12, 2), _score(1, 12, 1), _score(2, 3, 5)], (None,) * 3) == (0,)
    assert winners([_score(0, 12, 2), _score(1, 12, 2), _score(2, 12, 1)], (None,) * 3) == (0, 1)


def test_a_seat_that_is_out_never_wins_and_ranks_below_every_seat_in() -> None:
    scores = [_score(0, 30, 2), _score(1, 12, 0), _score(2, 5, 0)]
    out = ("resigned", None, None)
    assert winners(scores, out) == (1,)
    ranks = [s.rank for s in rank(scores, out)]
    assert ranks == [3, 1, 2]


def test_scores_during_play_equal_the_recount() -> None:
    state = scored_state()
    for seat, player in enumerate(state.players):
        assert player.score == final_scores(state)[seat].route_points
        assert GAME.view(state, None)["players"][seat]["score"] == player.score
