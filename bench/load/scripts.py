"""Scripted games: complete games decided locally with the rules, to be sent
over HTTP and checked event by event afterwards.

In an open deal the server's setup depends only on the players, the seed and
the start seat, so a game created that way deals exactly what the local replay
dealt, and every action of the script is legal when it is sent in order.
The expected stored events (type, seat, payload) of every prefix are known in
advance, which is what lets the integrity check say "no event lost, none
duplicated" exactly rather than by counting.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from typing import Any

from domain.core import JSON, STATUS_FINISHED, GameConfig, replay
from domain.registry import game_definition
from events.encoding.codec import dumps_payload, encode
from events.records import NewEvent

GAME_TYPE = "ttr-sf"

Policy = Callable[[list[dict[str, JSON]], random.Random], dict[str, JSON]]


@dataclass(frozen=True)
class ExpectedEvent:
    """An event as the store must hold it."""

    type: str
    seat: int | None
    payload_json: str
    schema_version: int

    def as_new(self) -> NewEvent:
        """The event to append to write it directly into a store."""
        return NewEvent(self.type, json.loads(self.payload_json), self.schema_version, self.seat)


@dataclass(frozen=True)
class ScriptedAction:
    """One action of a script: who sends it, its body, the events it makes."""

    seat: int
    body: dict[str, JSON]
    events: tuple[ExpectedEvent, ...]
    #: the game's status once this action is applied
    status: str


@dataclass(frozen=True)
class GameScript:
    """A complete game decided in advance."""

    game_type: str
    seed: str
    players: tuple[str, ...]
    setup: tuple[ExpectedEvent, ...]
    actions: tuple[ScriptedAction, ...]
    finished: bool

    def create_body(self) -> dict[str, JSON]:
        """The ``POST /v1/games`` body that deals this game: an open deal,
        so the seed alone makes the deal."""
        return {"type": self.game_type, "players": [{"name": p} for p in self.players], "seed": self.seed,
                "open_deal": True}

    def version_after(self, done: int) -> int:
        """The game's version once the first ``done`` actions are applied."""
        return self._versions[min(done, len(self.actions))]

    @cached_property
    def _versions(self) -> tuple[int, ...]:
        # the clients ask before and after every action: summed once, not per request
        return tuple(accumulate((len(a.events) for a in self.actions), initial=len(self.setup)))

    def expected_events(self, done: int) -> list[ExpectedEvent]:
        """Every event the store holds once the first ``done`` actions are applied."""
        out = list(self.setup)
        for action in self.actions[:done]:
            out.extend(action.events)
        return out


def _by_type(actions: Sequence[dict[str, JSON]], kind: str) -> list[dict[str, JSON]]:
    return [a for a in actions if a["type"] == kind]


def greedy_policy(actions: list[dict[str, JSON]], rng: random.Random) -> dict[str, JSON]:
    """The reference bot's greedy player (bots/client.py): keep the most
    tickets, claim the most valuable route, else draw a card."""
    keep = _by_type(actions, "keep_tickets")
    if keep:
        return max(keep, key=lambda a: len(a["tickets"]))
    claims = _by_type(actions, "claim_route")
    if claims:
        best = max(sum(a["cards"].values()) for a in claims)
        return rng.choice([a for a in claims if sum(a["cards"].values()) == best])
    draws = _by_type(actions, "draw_card")
    return rng.choice(draws or actions)


def long_policy(actions: list[dict[str, JSON]], rng: random.Random) -> dict[str, JSON]:
    """A player that makes games long: draws tickets and cards, keeps as few
    tickets as allowed and claims (cheap routes) only now and then."""
    keep = _by_type(actions, "keep_tickets")
    if keep:
        return min(keep, key=lambda a: len(a["tickets"]))
    tickets = _by_type(actions, "draw_tickets")
    if tickets:
        return tickets[0]
    claims = _by_type(actions, "claim_route")
    if claims and rng.random() < 0.3:
        return min(claims, key=lambda a: sum(a["cards"].values()))
    draws = _by_type(actions, "draw_card")
    return rng.choice(draws or claims or actions)


def _expected(game: Any, events: Sequence[Any], seat: int | None) -> tuple[ExpectedEvent, ...]:
    out = []
    for e in events:
        new = encode(game, e, seat)
        out.append(ExpectedEvent(new.type, new.seat, dumps_payload(new.payload), new.schema_version))
    return tuple(out)


def make_script(
    seed: str, players: int = 2, policy: Policy = greedy_policy, max_actions: int = 5000, game_type: str = GAME_TYPE
) -> GameScript:
    """Play a whole game locally with ``policy`` (seeded by ``seed``)."""
    game = game_definition(game_type)
    names = tuple(f"bot-{i + 1}" for i in range(players))
    setup_events = game.setup(GameConfig(names, seed, 0))
    state = replay(game, setup_events)
    rng = random.Random(seed)
    actions: list[ScriptedAction] = []
    while game.status(state) != STATUS_FINISHED and len(actions) < max_actions:
        seat = game.active_seats(state)[0]
        legal = game.legal_actions(state, seat)
        body = policy([a.to_body() for a in legal], rng)
        events = game.decide(state, seat, game.parse_action(body))
        state = replay(game, events, state)
        actions.append(ScriptedAction(seat, body, _expected(game, events, seat), game.status(state)))
    return GameScript(
        game_type, seed, names, _expected(game, setup_events, None), tuple(actions),
        game.status(state) == STATUS_FINISHED,
    )
