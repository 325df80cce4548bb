"""Random legal games for the property tests, with fuzzed illegal actions."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from domain.core import Action
from domain.ttr.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets, PlaceSouvenirStack
from domain.ttr.board import load_board
from domain.ttr.cards import CARD_TYPES
from domain.ttr.claims import souvenir_options
from domain.ttr.state import TtrState

BOARD = load_board()
KINDS = (DrawCard, ClaimRoute, DrawTickets, KeepTickets, PlaceSouvenirStack)


@dataclass
class Policy:
    """How a random player picks among legal actions: a weight per kind."""

    weights: dict[type, float] = field(default_factory=dict)

    @classmethod
    def for_game(cls, rnd: random.Random) -> Policy:
        """A per-game policy (some games hoard cards, some chase tickets)."""
        return cls({kind: rnd.choice((0.05, 1.0, 3.0)) for kind in KINDS})

    def choose(self, rnd: random.Random, actions: list[Action]) -> Action:
        """Pick a kind by weight, then an action of that kind uniformly."""
        by_kind: dict[type, list[Action]] = {}
        for action in actions:
            by_kind.setdefault(type(action), []).append(action)
        kinds = sorted(by_kind, key=lambda k: k.__name__)
        kind = rnd.choices(kinds, weights=[self.weights.get(k, 1.0) for k in kinds])[0]
        return rnd.choice(by_kind[kind])


def fuzz_action(rnd: random.Random, state: TtrState, seat: int) -> Action:
    """A random, usually illegal, action of any kind."""
    kind = rnd.choice(KINDS)
    if kind is DrawCard:
        return DrawCard("deck") if rnd.random() < 0.3 else DrawCard("face_up", rnd.randint(-1, 5))
    if kind is ClaimRoute:
        route = rnd.choice(BOARD.routes)
        colour = rnd.choice(CARD_TYPES)
        cards = {colour: rnd.randint(0, route.length)}
        if rnd.random() < 0.5:
            cards["ferry"] = cards.get("ferry", 0) + rnd.randint(0, 2)
        souvenir = rnd.choice((None, None, *BOARD.souvenir_symbols))
        return ClaimRoute.paying(rnd.choice((route.id, route.id, "nowhere--x")), cards, souvenir)
    if kind is DrawTickets:
        return DrawTickets()
    if kind is KeepTickets:
        pool = [*state.players[seat].pending, rnd.choice(BOARD.tickets).id]
        return KeepTickets(tuple(rnd.sample(pool, rnd.randint(0, len(pool)))))
    symbol = rnd.choice((*BOARD.souvenir_symbols, "moon"))
    return PlaceSouvenirStack(symbol, rnd.choice((*(loc.id for loc in BOARD.locations), "atlantis")))


def equivalent_listed(state: TtrState, seat: int, action: Action, listed: list[Action]) -> bool:
    """Whether ``action`` is one of ``listed`` up to an equivalent spelling
    (tickets in another order; naming the one souvenir that is automatic)."""
    if action in listed:
        return True
    if isinstance(action, KeepTickets):
        return any(isinstance(a, KeepTickets) and sorted(a.tickets) == sorted(action.tickets) for a in listed)
    if isinstance(action, ClaimRoute) and action.souvenir is not None:
        route = BOARD.route(action.route)
        if route is not None and souvenir_options(state, seat, route) == (action.souvenir,):
            return ClaimRoute(action.route, action.cards) in listed
    return False
