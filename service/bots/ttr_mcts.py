"""The search bot for Ticket to Ride (``mcts``): information-set Monte Carlo search.

It is given its seat's view and nothing else.  Each iteration

1. **determinises**: deals every card and ticket the seat cannot see
   (the others' hands and tickets, the deck and discard order, the ticket
   deck) at random from what is left once its own hand, its own tickets and
   the face-up row are taken out (:func:`determinise`, which reads the view
   only, so hidden state is out of its reach);
2. **selects** a move of its own by UCB1 among a few candidates (the
   planner's move, every route it can claim now, the face-up cards, a blind
   draw, tickets), with the planner's move given a head start;
3. **plays out** a short future in that sampled world with the planner
   policy for every seat, through the pure rules of ``domain/``;
4. **scores** the outcome: the seat's expected final total (route and
   souvenir points, tickets done or still reachable with its cars) minus
   the best other seat's, squashed to 0..1.

It stops when the think budget (``think_s``) is spent, or after a fixed
number of iterations (tests), and plays the most visited move.  The tree
is one level deep (moves of its own at the root; the playouts do the rest):
with a budget of tens of milliseconds, deeper trees would see too few
visits per node to tell moves apart.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from domain.core import Action
from domain.rng import Rng
from domain.ttr import GAME
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets
from domain.ttr.board import load_board
from domain.ttr.cards import hand_of
from domain.ttr.state import (
    PHASE_SECOND_DRAW,
    PHASE_SETUP,
    PHASE_TURN_START,
    PlayerState,
    SouvenirStack,
    TtrState,
)
from service.bots.ttr_planner import TICKETS, Situation, choose, plan_routes

BOARD = load_board()
#: playout length, in moves of all seats
HORIZON = 8
#: UCB1 exploration constant and the planner move's head start (in virtual wins/visits)
EXPLORE = 0.7
PRIOR_VISITS = 3
PRIOR_VALUE = 0.55


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


def estimate(state: TtrState, seat: int) -> float:
    """Expected final total of ``seat``: points so far plus tickets done or still reachable."""
    player = state.players[seat]
    sit = Situation.from_state(state, seat)
    _, reachable = plan_routes(sit, player.tickets)
    total = float(player.score) + BOARD.souvenir_points[len(set(player.souvenirs))]
    for tid in player.tickets:
        points = TICKETS[tid].points
        total += points * (0.6 if tid in reachable else -1.0)
    return total


def value(state: TtrState, seat: int) -> float:
    """The outcome for ``seat`` in 0..1 (a logistic of its lead over the best other seat)."""
    if state.finished:
        result = GAME.result(state) or {}
        return 1.0 if seat in result.get("winners", []) else 0.0
    mine = estimate(state, seat)
    best_other = max(estimate(state, s) for s in range(state.num_players) if s != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best_other) / 8.0))


def candidates(state: TtrState, seat: int, rng: random.Random) -> list[Action]:
    """The moves worth searching: the planner's first, then the other kinds of move."""
    legal = GAME.legal_actions(state, seat)
    first = planner_move(state, seat, rng)
    out: list[Action] = [first] if first is not None and first in legal else []
    claims: dict[str, Action] = {}
    for a in legal:
        if isinstance(a, ClaimRoute) and a.route not in claims:
            claims[a.route] = a
    extra: list[Action] = [*claims.values()]
    extra += [a for a in legal if isinstance(a, DrawCard | DrawTickets)]
    if not extra:
        extra = list(legal)
    for a in extra:
        if a not in out:
            out.append(a)
    return out[:12]


def playout(state: TtrState, rng: random.Random, horizon: int) -> TtrState:
    """Play ``horizon`` moves with the planner for every seat (or until the end)."""
    for _ in range(horizon):
        if state.finished:
            break
        seat = state.active_seats()[0]
        action = planner_move(state, seat, rng)
        if action is None:
            break
        try:
            events = GAME.decide(state, seat, action)
        except Exception:  # the planner's move in an odd sampled world: stop here, score what is
            break
        for event in events:
            state = GAME.evolve(state, event)
    return state


class MctsBot:
    """Information-set Monte Carlo search with a time (or iteration) budget per move."""

    def __init__(self, think_s: float = 0.05, iterations: int | None = None, horizon: int = HORIZON) -> None:
        self.think_s = think_s
        self.iterations = iterations
        self.horizon = horizon
        self.last_iterations = 0

    def __call__(self, view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        if view["phase"] == PHASE_SETUP or view["phase"] not in (PHASE_TURN_START, PHASE_SECOND_DRAW) or len(actions) == 1:
            # setup choices and ticket picks: the planner's judgment, no search needed
            from service.bots.ttr_planner import planner_strategy

            return planner_strategy(view, actions, rng)
        return self.search(view, rng).to_body()

    def search(self, view: dict[str, Any], rng: random.Random) -> Action:
        """The most visited move after the budget is spent."""
        seat = view["me"]["seat"]
        deadline = time.perf_counter() + self.think_s
        root = determinise(view, rng)
        moves = candidates(root, seat, rng)
        visits = [float(PRIOR_VISITS if i == 0 else 0) for i in range(len(moves))]
        wins = [PRIOR_VISITS * PRIOR_VALUE if i == 0 else 0.0 for i in range(len(moves))]
        n = 0
        started = time.perf_counter()
        while True:
            if self.iterations is not None:
                if n >= self.iterations:
                    break
            elif n:
                # stop when one more iteration of the average length would overrun the budget
                now = time.perf_counter()
                if now + (now - started) / n >= deadline:
                    break
            world = determinise(view, rng) if n else root
            total = sum(visits) + 1
            pick = max(
                range(len(moves)),
                key=lambda i: math.inf if visits[i] == 0 else wins[i] / visits[i]
                + EXPLORE * math.sqrt(math.log(total) / visits[i]),
            )
            state = world
            for event in GAME.decide(state, seat, moves[pick]):
                state = GAME.evolve(state, event)
            outcome = value(playout(state, rng, self.horizon), seat)
            visits[pick] += 1
            wins[pick] += outcome
            n += 1
        self.last_iterations = n
        return moves[max(range(len(moves)), key=lambda i: (visits[i], wins[i]))]



