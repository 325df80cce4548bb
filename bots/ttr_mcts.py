"""The search bot for Ticket to Ride (``mcts``): information-set Monte Carlo search.

Its moves are those of its own default policy (:mod:`.ttr_policy`: the planner
with paths along long routes, the most contested claim first, no late ticket
draws) unless the search finds a clearly better one; the policy is where its
strength over the planner comes from (bench/results/BOTS.md, "Issue 28").

It is given its seat's view and nothing else.  Each iteration

1. **determinises**: deals every card and ticket the seat cannot see
   (the others' hands and tickets, the deck and discard order, the ticket
   deck) at random from what is left once its own hand, its own tickets and
   the face-up row are taken out (:func:`determinise`, which reads the view
   only, so hidden state is out of its reach);
2. plays **every candidate** move of its own (the policy's move, the
   routes of its plan it can claim now, or any route in the last round,
   and, unless the policy is ready to claim, the draws) in that world, each
   followed by the same short **playout** (its policy for its own seat, the
   planner for the others, the same randomness: common random numbers, so
   moves are compared in the same future) through the pure rules of
   ``domain/``;
3. **scores** the outcome: the seat's expected final total (route and
   souvenir points, tickets done or still reachable with its cars) minus
   the best other seat's, squashed to 0..1.

It stops when the think budget (``think_s`` of this thread's CPU time, within
``WALL_FACTOR`` times that in wall time) is spent, or after a fixed
number of sampled worlds (tests), and plays the policy's move unless
another did better in the same worlds by a clear margin (two standard
errors of the paired differences).  The tree is one level deep
(its own moves at the root, over sampled worlds of its information set;
the playouts do the rest): with a budget of tens of milliseconds, deeper
trees would see too few visits per node to tell moves apart.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from bots import ttr_policy
from bots.ttr_planner import TICKETS, Situation, _weights, choose, shortest
from domain.core import Action
from domain.rng import Rng
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard
from domain.ttr.board import load_board
from domain.ttr.cards import hand_of
from domain.ttr.scoring import final_scores
from domain.ttr.state import (
    PHASE_SECOND_DRAW,
    PHASE_SETUP,
    PHASE_TURN_START,
    PlayerState,
    SouvenirStack,
    TtrState,
)

BOARD = load_board()
#: playout length, in moves of all seats
HORIZON = 4
#: how much better (in average outcome, 0..1) another move must look to overrule the policy's
PRIOR_EDGE = 0.02
#: sampled worlds needed before the policy's move may be overruled
MIN_WORLDS = 3
#: candidate moves searched at most
MAX_CANDIDATES = 8
#: the wall-clock cap of a search, as a multiple of its CPU budget
WALL_FACTOR = 4.0
#: standard errors of the paired differences another move must clear to overrule the policy's
CONFIDENCE_Z = 2.0


def determinise(view: Mapping[str, Any], rng: random.Random) -> TtrState:
    """A full state consistent with ``view`` (a seat's view), hidden parts sampled.

    Everything the view shows is copied; the cards and tickets it does not
    show are dealt at random from the ones the seat cannot account for."""
    me = view["me"]
    seat = me["seat"]
    players_view = view["players"]
    pool = list(BOARD.full_deck())
    for card, count in me["hand"].items():
        for _ in range(count):
            pool.remove(card)
    for card in view["face_up"]:
        if card is not None:
            pool.remove(card)
    rng.shuffle(pool)
    mine = {t["id"] for t in me["tickets"]} | {t["id"] for t in me["pending_tickets"]}
    ticket_pool = [t.id for t in BOARD.tickets if t.id not in mine]
    rng.shuffle(ticket_pool)
    players = []
    for i, p in enumerate(players_view):
        if i == seat:
            hand = hand_of(c for c, n in me["hand"].items() for _ in range(n))
            tickets = tuple(t["id"] for t in me["tickets"])
            pending = tuple(t["id"] for t in me["pending_tickets"])
        else:
            hand = hand_of(pool[: p["hand_count"]])
            del pool[: p["hand_count"]]
            tickets = tuple(ticket_pool[: p["ticket_count"]])
            del ticket_pool[: p["ticket_count"]]
            pending = tuple(ticket_pool[: p["pending_ticket_count"]])
            del ticket_pool[: p["pending_ticket_count"]]
        players.append(
            PlayerState(p["name"], p["cars"], p["score"], hand, tickets, pending, tuple(p["souvenirs"]),
                        tuple(p["routes"]))
        )
    deck = tuple(pool[: view["deck_count"]])
    discard = tuple(pool[view["deck_count"] : view["deck_count"] + view["discard_count"]])
    owners = view["claimed"]
    return TtrState(
        players=tuple(players),
        start_seat=view["start_seat"],
        rng=Rng(f"{rng.getrandbits(128):032x}", 0),
        deck=deck,
        discard=discard,
        face_up=tuple(view["face_up"]),
        ticket_deck=tuple(ticket_pool[: view["tickets_left"]]),
        claimed=tuple(owners.get(r.id) for r in BOARD.routes),
        stacks=tuple(SouvenirStack(loc, s["symbol"], s["count"]) for loc, s in view["souvenir_stacks"].items()),
        set_aside=tuple(view["set_aside"]),
        set_aside_size=view["set_aside_stack_size"] or 0,
        placers=(),
        box=tuple(view["souvenirs_in_box"][s] for s in BOARD.souvenir_symbols),
        phase=view["phase"],
        turn=view["turn"] if view["turn"] is not None else seat,
        final_turns_left=view["final_turns_left"],
    )


def planner_move(state: TtrState, seat: int, rng: random.Random) -> Action | None:
    """The planner's move for ``seat`` in a (sampled) full state."""
    return choose(Situation.from_state(state, seat), state.phase == PHASE_SECOND_DRAW, rng)


def policy_move(state: TtrState, seat: int, rng: random.Random) -> Action | None:
    """The search bot's own default policy's move for ``seat`` (:mod:`.ttr_policy`)."""
    return ttr_policy.choose(Situation.from_state(state, seat), state.phase == PHASE_SECOND_DRAW, rng)


#: ticket estimates already made, by situation and turns left
_TICKET_VALUES: dict[tuple[Any, ...], float] = {}


def estimate(state: TtrState, seat: int) -> float:
    """Expected final total of ``seat``: points so far, plus each open ticket weighted by
    the chance of finishing it (its remaining cost in cars against the turns likely left)."""
    player = state.players[seat]
    turns_left = max(1.0, min(p.cars for p in state.players) / 2.5)
    if state.final_turns_left is not None:
        turns_left = 1.0
    total = float(player.score) + BOARD.souvenir_points[len(set(player.souvenirs))]
    sit = Situation.from_state(state, seat)
    key = (sit.board_key(), player.cars, player.tickets, turns_left)
    tickets = _TICKET_VALUES.get(key)
    if tickets is None:
        if len(_TICKET_VALUES) >= 50_000:
            _TICKET_VALUES.clear()
        tickets = _TICKET_VALUES[key] = _ticket_value(sit, player.cars, player.tickets, turns_left)
    return total + tickets


def _ticket_value(sit: Situation, cars: int, tickets: tuple[str, ...], turns_left: float) -> float:
    weights = _weights(sit)
    total = 0.0
    for tid in tickets:
        ticket = TICKETS[tid]
        found = shortest(sit, ticket.a, ticket.b, set(), weights)
        if found is None or found[0] > cars:
            total -= ticket.points
            continue
        chance = 1.0 / (1.0 + math.exp(-(turns_left - found[0]) / 2.0)) if found[0] > 0 else 1.0
        total += ticket.points * (2.0 * chance - 1.0)
    return total


def value(state: TtrState, seat: int) -> float:
    """The outcome for ``seat`` in 0..1 (a logistic of its lead over the best other seat)."""
    if state.finished:
        totals = [s.total for s in final_scores(state)]
        mine = float(totals[seat])
        best_other = float(max(t for s, t in enumerate(totals) if s != seat))
        return 1.0 / (1.0 + math.exp(-(mine - best_other) / 8.0))
    mine = estimate(state, seat)
    best_other = max(estimate(state, s) for s in range(state.num_players) if s != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best_other) / 8.0))


def candidates(state: TtrState, seat: int, rng: random.Random) -> list[Action]:
    """The moves worth searching: the policy's first, then the other kinds of move."""
    legal = GAME.legal_actions(state, seat)
    first = policy_move(state, seat, rng)
    out: list[Action] = [first] if first is not None and first in legal else []
    # Claims off the seat's plan are searched only in the last round: earlier, the short
    # playouts see their points but not the cars they cost (measured: 44 % against the
    # planner over 400 games when every claim was a candidate).
    last_round = state.final_turns_left is not None
    planned = set() if last_round else {
        r.id for r in ttr_policy.plan_routes(Situation.from_state(state, seat), state.players[seat].tickets)[0]
    }
    claims: dict[str, Action] = {}
    for a in legal:
        if isinstance(a, ClaimRoute) and a.route not in claims and (last_round or a.route in planned):
            claims[a.route] = a
    extra: list[Action] = sorted(claims.values(), key=lambda a: -BOARD.routes_by_id[a.route].length)  # type: ignore[attr-defined]
    if not isinstance(first, ClaimRoute) or last_round:
        # a claim the planner is ready to make is not put off for a draw (the playouts are too
        # short to see the route taken meanwhile)
        extra += [a for a in legal if isinstance(a, DrawCard)]
    if not extra:
        extra = list(legal)
    for a in extra:
        if a not in out:
            out.append(a)
    return out[:MAX_CANDIDATES]


def playout(state: TtrState, rng: random.Random, horizon: int, me: int | None = None) -> TtrState:
    """Play ``horizon`` moves (or until the end): the seat ``me`` by its own policy, the others
    by the planner (the model of a sound opponent)."""
    for _ in range(horizon):
        if state.finished:
            break
        seat = state.active_seats()[0]
        action = (policy_move if seat == me else planner_move)(state, seat, rng)
        if action is None:
            break
        try:
            events = GAME.decide(state, seat, action)
        except Exception:  # a move in an odd sampled world: stop here, score what is
            break
        for event in events:
            state = GAME.evolve(state, event)
    return state


def overruling(outcomes: list[list[float]]) -> int:
    """The candidate to play: the policy's (0) unless another one did better in the
    same worlds by more than :data:`PRIOR_EDGE` plus two standard errors of the paired
    differences, over at least :data:`MIN_WORLDS` worlds."""
    base = outcomes[0]
    best, best_margin = 0, 0.0
    for i, mine in enumerate(outcomes[1:], 1):
        diffs = [a - b for a, b in zip(mine, base, strict=False)]
        if len(diffs) < MIN_WORLDS:
            continue
        mean = sum(diffs) / len(diffs)
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
        margin = mean - CONFIDENCE_Z * spread - PRIOR_EDGE
        if margin > best_margin:
            best, best_margin = i, margin
    return best


class MctsBot:
    """Information-set Monte Carlo search with a time (or iteration) budget per move."""

    def __init__(self, think_s: float = 0.05, iterations: int | None = None, horizon: int = HORIZON,
                 wall_factor: float = WALL_FACTOR) -> None:
        self.think_s = think_s
        self.wall_s = think_s * wall_factor
        self.iterations = iterations
        self.horizon = horizon
        self.last_iterations = 0

    def __call__(self, view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        if view["phase"] == PHASE_SETUP or view["phase"] not in (PHASE_TURN_START, PHASE_SECOND_DRAW) or len(actions) == 1:
            # setup choices and ticket picks: the policy's judgment (the planner's rules over its plans), no search needed
            return ttr_policy.policy_strategy(view, actions, rng)
        return self.search(view, rng).to_body()

    def search(self, view: dict[str, Any], rng: random.Random) -> Action:
        """The policy's move unless another did clearly better over the sampled worlds.

        Every candidate is played out in the same sampled world with the same
        playout randomness (common random numbers), so moves are compared
        pairwise in the same futures (:func:`overruling`)."""
        seat = view["me"]["seat"]
        # The budget is this thread's CPU time (what thinking costs, whatever else shares the
        # machine), within a wall-clock cap (the clocks and the players wait in wall time).
        started, wall_started = time.thread_time(), time.perf_counter()
        deadline, wall_deadline = started + self.think_s, wall_started + self.wall_s
        root = determinise(view, rng)
        moves = candidates(root, seat, rng)
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        outcomes: list[list[float]] = [[] for _ in moves]
        worlds = 0
        while True:
            if self.iterations is not None:
                if worlds >= self.iterations:
                    break
            elif worlds:
                now, wall = time.thread_time(), time.perf_counter()
                if now + (now - started) / worlds >= deadline or wall + (wall - wall_started) / worlds >= wall_deadline:
                    break
            world = determinise(view, rng) if worlds else root
            seed = rng.getrandbits(64)
            for i, move in enumerate(moves):
                if not worlds and i > 1 and (time.thread_time() >= deadline or time.perf_counter() >= wall_deadline):
                    moves, outcomes = moves[:i], outcomes[:i]  # the budget allows no more in any world
                    break
                state = world
                for event in GAME.decide(state, seat, move):
                    state = GAME.evolve(state, event)
                outcomes[i].append(value(playout(state, random.Random(seed), self.horizon, seat), seat))
            worlds += 1
        self.last_iterations = worlds
        return moves[overruling(outcomes)]
