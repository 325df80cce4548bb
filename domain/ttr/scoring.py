"""Scoring: route points (recounted), tickets by connectivity, souvenirs,
the winners, the result and the standings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.core import JSON, Standing, to_json
from domain.forfeits import ranked_with_forfeits, standings_of
from domain.ttr.board import load_board
from domain.ttr.state import END_CANCELLED, PlayerState, TtrState


@dataclass(frozen=True, slots=True)
class TicketScore:
    """One ticket at the end: completed or not, and the signed points it adds."""

    id: str
    completed: bool
    points: int


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's final score breakdown."""

    seat: int
    route_points: int
    ticket_points: int
    souvenir_points: int
    total: int
    completed_tickets: int
    tickets: tuple[TicketScore, ...]


def route_points(route_ids: Iterable[str]) -> int:
    """Points of these routes from the route score table."""
    board = load_board()
    return sum(board.route_points[board.routes_by_id[r].length] for r in route_ids)


def souvenir_points(symbols: int) -> int:
    """Points for holding ``symbols`` different souvenir symbols."""
    return load_board().souvenir_points[symbols]


def _components(route_ids: Iterable[str]) -> dict[str, str]:
    """Union-find over the locations joined by ``route_ids``: location -> root."""
    board = load_board()
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for route_id in route_ids:
        route = board.routes_by_id[route_id]
        ra, rb = find(route.a), find(route.b)
        if ra != rb:
            parent[ra] = rb
    return {loc: find(loc) for loc in list(parent)}


def ticket_scores(player: PlayerState) -> tuple[TicketScore, ...]:
    """Each kept ticket: +points if its ends are joined by the player's own
    routes, -points otherwise."""
    board = load_board()
    roots = _components(player.routes)
    out = []
    for ticket_id in player.tickets:
        ticket = board.ticket(ticket_id)
        ra, rb = roots.get(ticket.a), roots.get(ticket.b)
        completed = ra is not None and ra == rb
        out.append(TicketScore(ticket_id, completed, ticket.points if completed else -ticket.points))
    return tuple(out)


def seat_score(seat: int, player: PlayerState) -> SeatScore:
    """The full score of one seat as it stands."""
    tickets = ticket_scores(player)
    routes = route_points(player.routes)
    ticket_total = sum(t.points for t in tickets)
    souvenirs = souvenir_points(len(set(player.souvenirs)))
    return SeatScore(
        seat=seat,
        route_points=routes,
        ticket_points=ticket_total,
        souvenir_points=souvenirs,
        total=routes + ticket_total + souvenirs,
        completed_tickets=sum(1 for t in tickets if t.completed),
        tickets=tickets,
    )


def final_scores(state: TtrState) -> tuple[SeatScore, ...]:
    """Every seat's score breakdown, by seat."""
    return tuple(seat_score(seat, player) for seat, player in enumerate(state.players))


def winners(scores: Iterable[SeatScore], out: Sequence[str | None]) -> tuple[int, ...]:
    """Among the seats still in: highest total; ties broken by more completed
    tickets; still tied: shared.  Seats that are out never win."""
    ranked = [s for s in scores if out[s.seat] is None]
    if not ranked:  # every seat went out: nobody wins
        return ()
    best = max((s.total, s.completed_tickets) for s in ranked)
    return tuple(s.seat for s in ranked if (s.total, s.completed_tickets) == best)


def result(state: TtrState) -> dict[str, JSON] | None:
    """The final result (``winners``, ``reason``, ``players`` breakdown, each
    with its ``standing``) once finished; None for a cancelled game."""
    if not state.finished or state.end_reason == END_CANCELLED:
        return None
    scores = final_scores(state)
    standing = standings_of(state.out)
    players = [{**to_json(s), "standing": standing[s.seat]} for s in scores]
    return {"winners": list(winners(scores, state.out)), "reason": state.end_reason, "players": players}


def standings(state: TtrState) -> tuple[Standing, ...] | None:
    """Each seat's standing once finished (see :func:`rank`), else None."""
    if not state.finished or state.end_reason == END_CANCELLED:
        return None
    return rank(final_scores(state), state.out)


def rank(scores: Sequence[SeatScore], out: Sequence[str | None]) -> tuple[Standing, ...]:
    """Each seat ranked by (total, completed tickets), the game's own
    tie-break, every seat still in above every seat that is out: 1 + the
    number of seats ranked better, so ties share a rank."""
    best = set(winners(scores, out))
    ranks = ranked_with_forfeits([(s.total, s.completed_tickets) for s in scores], out)
    return tuple(
        Standing(
            seat=s.seat,
            rank=ranks[s.seat],
            winner=s.seat in best,
            score=s.total,
            completed_tickets=s.completed_tickets,
        )
        for s in scores
    )
