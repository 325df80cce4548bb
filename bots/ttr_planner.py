"""The ticket-aware Ticket to Ride bot (``planner``).

It sees what its seat sees (:class:`Situation`, built from the seat's view or,
for the search bot's playouts, from a determinised state) and:

* keeps the tickets it can complete given the board (a shortest path over
  routes still open to it, its own routes free, within its cars);
* plans shortest paths for its open tickets, sharing routes between them
  (each ticket's path may reuse the routes already planned for the others);
* claims a planned route as soon as its cards are ready, longest first (the
  short ones are the likeliest to be taken from under it), and in the last
  round claims whatever scores most;
* otherwise draws the colours its planned routes still lack (a face-up
  ferry first only when a planned ferry route needs one), else blind;
* draws tickets late only when its plan is done and it has the cars and
  time to finish more, keeping only those it can still complete;
* counts souvenirs: a route to a stack of a symbol it lacks weighs less in
  its paths and more when it picks a route to claim.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets, PlaceSouvenirStack
from domain.ttr.board import GRAY, Route, load_board
from domain.ttr.cards import CARD_INDEX, CARD_TYPES, COLOURS, FERRY, FERRY_INDEX
from domain.ttr.payment import payments
from domain.ttr.state import TtrState

BOARD = load_board()
ROUTES = BOARD.routes
TICKETS = BOARD.tickets_by_id
#: location -> the routes touching it
ADJ: dict[str, list[Route]] = {}
for _r in ROUTES:
    ADJ.setdefault(_r.a, []).append(_r)
    ADJ.setdefault(_r.b, []).append(_r)
SOUVENIR_WEIGHT = 0.4
#: location -> (route, the location at its other end)
NEXT: dict[str, list[tuple[Route, str]]] = {
    loc: [(r, r.b if r.a == loc else r.a) for r in routes] for loc, routes in ADJ.items()
}


@dataclass
class Situation:
    """What one seat knows, whether read from its view or from a state."""

    seat: int
    players: int
    phase: str
    hand: list[int]
    cars: list[int]
    tickets: list[str]
    pending: list[str]
    souvenirs: set[str]
    claimed: dict[str, int]
    face_up: list[str | None]
    deck_count: int
    tickets_left: int
    stacks: dict[str, tuple[str, int]]
    set_aside: list[str]
    final_round: bool

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Situation:
        me = view["me"]
        seat = me["seat"]
        return cls(
            seat=seat,
            players=len(view["players"]),
            phase=view["phase"],
            hand=[me["hand"].get(c, 0) for c in CARD_TYPES],
            cars=[p["cars"] for p in view["players"]],
            tickets=[t["id"] for t in me["tickets"]],
            pending=[t["id"] for t in me["pending_tickets"]],
            souvenirs=set(view["players"][seat]["souvenirs"]),
            claimed=dict(view["claimed"]),
            face_up=list(view["face_up"]),
            deck_count=view["deck_count"] + view["discard_count"],
            tickets_left=view["tickets_left"],
            stacks={loc: (s["symbol"], s["count"]) for loc, s in view["souvenir_stacks"].items()},
            set_aside=list(view["set_aside"]),
            final_round=view["final_turns_left"] is not None,
        )

    @classmethod
    def from_state(cls, state: TtrState, seat: int) -> Situation:
        me = state.players[seat]
        return cls(
            seat=seat,
            players=state.num_players,
            phase=state.phase,
            hand=list(me.hand),
            cars=[p.cars for p in state.players],
            tickets=list(me.tickets),
            pending=list(me.pending),
            souvenirs=set(me.souvenirs),
            claimed={r.id: o for r, o in zip(ROUTES, state.claimed, strict=True) if o is not None},
            face_up=list(state.face_up),
            deck_count=len(state.deck) + len(state.discard),
            tickets_left=len(state.ticket_deck),
            stacks={s.location: (s.symbol, s.count) for s in state.stacks},
            set_aside=list(state.set_aside),
            final_round=state.final_turns_left is not None,
        )

    def board_key(self) -> tuple[Any, ...]:
        """Everything :func:`_weights` reads (whose routes, the stacks, the seat's
        souvenirs): equal keys, equal paths."""
        return (self.seat, self.players, frozenset(self.claimed.items()), frozenset(self.stacks.items()),
                frozenset(self.souvenirs))

    def open_to_me(self, route: Route) -> bool:
        """Whether the seat may still claim ``route`` (cars aside)."""
        if route.id in self.claimed:
            return False
        if route.double_of is not None:
            twin = self.claimed.get(route.double_of)
            if twin == self.seat or (twin is not None and self.players == 2):
                return False
        return True

    def souvenir_at(self, location: str) -> str | None:
        stack = self.stacks.get(location)
        if stack and stack[1] > 0 and stack[0] not in self.souvenirs:
            return stack[0]
        return None


def _weights(sit: Situation) -> list[float | None]:
    """Each route's cost in a path (by route index): own routes are free, closed ones None."""
    out: list[float | None] = []
    for route in ROUTES:
        if sit.claimed.get(route.id) == sit.seat:
            out.append(0.0)
        elif not sit.open_to_me(route):
            out.append(None)
        else:
            bonus = SOUVENIR_WEIGHT if sit.souvenir_at(route.a) or sit.souvenir_at(route.b) else 0.0
            out.append(route.length + 0.5 * route.ferries - bonus)
    return out


def shortest(
    sit: Situation, a: str, b: str, free: set[str], weights: list[float | None] | None = None
) -> tuple[float, list[Route]] | None:
    """The cheapest chain of routes joining ``a`` and ``b`` (own and ``free`` routes cost nothing)."""
    weights = weights if weights is not None else _weights(sit)
    dist = {a: 0.0}
    back: dict[str, tuple[str, Route]] = {}
    heap = [(0.0, a)]
    while heap:
        d, loc = heapq.heappop(heap)
        if loc == b:
            path = []
            while loc != a:
                loc, route = back[loc][0], back[loc][1]
                path.append(route)
            return d, path
        if d > dist[loc]:
            continue
        for route, other in NEXT[loc]:
            w = 0.0 if route.id in free else weights[route.index]
            if w is None:
                continue
            if d + w < dist.get(other, 1e18):
                dist[other] = d + w
                back[other] = (loc, route)
                heapq.heappush(heap, (d + w, other))
    return None


#: plans already made, by situation: the planned routes and the tickets they complete
PlanCache = dict[tuple[Any, ...], tuple[list[Route], list[str]]]
#: the planner's plans (the search bot asks for the same ones over and over)
_PLANS: PlanCache = {}
_PLANS_MAX = 50_000


def plan_routes(sit: Situation, tickets: Iterable[str]) -> tuple[list[Route], list[str]]:
    """Unclaimed routes joining as many of ``tickets`` as the cars allow (best first),
    and the tickets that plan completes (remembered: a pure function of the situation)."""
    return weighted_plan(sit, tickets, _weights, _PLANS)


def weighted_plan(
    sit: Situation,
    tickets: Iterable[str],
    weigh: Callable[[Situation], list[float | None]],
    plans: PlanCache,
) -> tuple[list[Route], list[str]]:
    """:func:`plan_routes` along the paths the route costs ``weigh`` gives,
    remembered in ``plans`` (one cache per way of weighing: the key holds no
    trace of it)."""
    tickets = tuple(tickets)
    key = (sit.board_key(), sit.cars[sit.seat], tickets)
    found = plans.get(key)
    if found is None:
        if len(plans) >= _PLANS_MAX:
            plans.clear()
        found = plans[key] = _plan_routes(sit, tickets, weigh(sit))
    return list(found[0]), list(found[1])


def _plan_routes(
    sit: Situation, tickets: Iterable[str], weights: list[float | None]
) -> tuple[list[Route], list[str]]:
    planned: dict[str, Route] = {}
    done: list[str] = []
    cars = sit.cars[sit.seat]
    for tid in sorted(tickets, key=lambda t: -TICKETS[t].points):
        t = TICKETS[tid]
        found = shortest(sit, t.a, t.b, set(planned), weights)
        if found is None:
            continue
        new = [r for r in found[1] if r.id not in planned and sit.claimed.get(r.id) != sit.seat]
        cost = sum(r.length for r in new)
        if cost > cars:
            continue
        cars -= cost
        planned.update((r.id, r) for r in new)
        done.append(tid)
    return list(planned.values()), done


def _best_payment(route: Route, hand: Sequence[int]) -> dict[str, int] | None:
    options = payments(route, tuple(hand))
    if not options:
        return None
    # fewest ferries (jokers are precious), then the colour held most
    return min(options, key=lambda p: (p.get(FERRY, 0), -max((hand[CARD_INDEX[c]] for c in p if c != FERRY), default=0)))


def _claim(sit: Situation, route: Route) -> ClaimRoute | None:
    if sit.cars[sit.seat] < route.length or not sit.open_to_me(route):
        return None
    pay = _best_payment(route, sit.hand)
    if pay is None:
        return None
    options = [s for s in (sit.souvenir_at(route.a), sit.souvenir_at(route.b)) if s]
    return ClaimRoute.paying(route.id, pay, options[0] if len(options) > 1 else None)


def _needs(sit: Situation, routes: Sequence[Route]) -> list[float]:
    """How much the seat wants one more card of each type (index as CARD_TYPES)."""
    want = [0.0] * len(CARD_TYPES)
    hand = list(sit.hand)
    for route in sorted(routes, key=lambda r: -r.length):
        colour = max(COLOURS, key=lambda c: hand[CARD_INDEX[c]]) if route.color == GRAY else route.color
        i = CARD_INDEX[colour]
        short = route.length - route.ferries - hand[i]
        hand[i] = max(0, hand[i] - (route.length - route.ferries))
        if short > 0:
            want[i] += short / route.length
        ferry_short = route.ferries - hand[FERRY_INDEX]
        hand[FERRY_INDEX] = max(0, hand[FERRY_INDEX] - route.ferries)
        if ferry_short > 0:
            want[FERRY_INDEX] += 1.5 * ferry_short
    return want


def _draw(sit: Situation, routes: Sequence[Route], second: bool, rng: random.Random) -> DrawCard | None:
    want = _needs(sit, routes)
    best_slot, best = None, 0.25
    for slot, card in enumerate(sit.face_up):
        if card is None or (second and card == FERRY):
            continue
        value = want[CARD_INDEX[card]] * (0.5 if card == FERRY else 1.0)
        if value > best:
            best_slot, best = slot, value
    if best_slot is not None:
        return DrawCard("face_up", best_slot)
    if sit.deck_count > 0:
        return DrawCard("deck")
    slots = [s for s, c in enumerate(sit.face_up) if c is not None and not (second and c == FERRY)]
    return DrawCard("face_up", rng.choice(slots)) if slots else None


def choose_keep(sit: Situation, pending: Sequence[str], kept: Sequence[str]) -> KeepTickets:
    """Keep the pending tickets that add the most points the cars can still deliver."""
    best: tuple[float, tuple[str, ...]] | None = None
    for size in range(1, len(pending) + 1):
        for subset in combinations(pending, size):
            routes, done = plan_routes(sit, [*kept, *subset])
            missed = sum(TICKETS[t].points for t in subset if t not in done)
            value = sum(TICKETS[t].points for t in done) - 2.0 * missed - 0.1 * sum(r.length for r in routes)
            if best is None or value > best[0]:
                best = (value, subset)
    assert best is not None
    return KeepTickets(best[1])


def choose(sit: Situation, second_draw: bool, rng: random.Random) -> Any:
    """The planner's action for the seat (a domain action), given what it knows."""
    if sit.pending:
        return choose_keep(sit, sit.pending, sit.tickets)
    if sit.phase == "setup":
        return _place_stack(sit)
    routes, _ = plan_routes(sit, sit.tickets)
    if second_draw:
        return _draw(sit, routes, True, rng)
    claims = [c for c in (_claim(sit, r) for r in sorted(routes, key=lambda r: -r.length)) if c is not None]
    if claims:
        return claims[0]
    if sit.final_round or not routes:
        other = _best_free_claim(sit)
        if other is not None and (sit.final_round or min(sit.cars) <= 6 or other[0] >= 4):
            return other[1]
    if not routes and sit.tickets_left and sit.cars[sit.seat] >= 6 and min(sit.cars) > 8 and not sit.final_round:
        return DrawTickets()
    draw = _draw(sit, routes, False, rng)
    if draw is not None:
        return draw
    other = _best_free_claim(sit)
    if other is not None:
        return other[1]
    return DrawTickets() if sit.tickets_left else None


def _best_free_claim(sit: Situation) -> tuple[float, ClaimRoute] | None:
    """The affordable route worth most points now (souvenirs included)."""
    best: tuple[float, ClaimRoute] | None = None
    for route in ROUTES:
        claim = _claim(sit, route)
        if claim is None:
            continue
        value = BOARD.route_points[route.length] + (1.0 if sit.souvenir_at(route.a) or sit.souvenir_at(route.b) else 0.0)
        if best is None or value > best[0]:
            best = (value, claim)
    return best


def _place_stack(sit: Situation) -> PlaceSouvenirStack | None:
    """Put a set-aside stack where the seat's tickets pass (else on the first free location)."""
    if not sit.set_aside:
        return None
    routes, _ = plan_routes(sit, sit.tickets or sit.pending)
    taken = set(sit.stacks)
    wanted = [loc for r in routes for loc in r.ends if loc not in taken]
    free = [loc.id for loc in BOARD.locations if loc.id not in taken]
    return PlaceSouvenirStack(sit.set_aside[0], (wanted or free)[0])


def planner_strategy(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The planner as a reference-bot strategy (view + legal actions -> action body)."""
    sit = Situation.from_view(view)
    second = view["phase"] == "second_draw"
    setup_stack = view["phase"] == "setup" and not sit.pending
    action = _place_stack(sit) if setup_stack else choose(sit, second, rng)
    body = action.to_body() if action is not None else None
    if body is None or body not in actions:
        # never send what the rules would refuse: fall back on a listed action of the same kind
        same = [a for a in actions if body is not None and a["type"] == body["type"]]
        return same[0] if same else actions[0]
    return body
