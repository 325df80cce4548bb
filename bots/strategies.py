"""Every bot strategy by name, for either game.

A strategy has the reference bot's shape (:data:`bots.client.Strategy`): the
seat's view and its legal actions (ready-to-send bodies) in, one body out,
so the same strategy plays over HTTP (``cablecar bot play``) and in process
(:mod:`bots.arena`, ``bench/bots.py``).

* ``random``, ``greedy``: the reference bot's (:mod:`bots.client`);
* ``planner``: the cable-car line planner (:mod:`.cablecar_planner`) or the
  ticket-aware Ticket to Ride planner (:mod:`.ttr_planner`);
* ``mcts``: Ticket to Ride only, the search bot (:mod:`.ttr_mcts`) with a
  think budget per move (``think_ms``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bots.client import STRATEGIES as REFERENCE

Strategy = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]

NAMES = ("random", "greedy", "planner", "mcts")
DEFAULT_THINK_MS = 50


class UnknownStrategy(ValueError):
    """A strategy name that does not exist, or does not play that game."""


def strategy(name: str, game_type: str, think_ms: int = DEFAULT_THINK_MS) -> Strategy:
    """A fresh strategy ``name`` for ``game_type`` (one per seat: some keep state)."""
    if name in REFERENCE:
        return REFERENCE[name]
    if name == "planner":
        if game_type == "cable-car":
            from bots.cablecar_planner import planner_strategy as cable_car

            return cable_car
        from bots.ttr_planner import planner_strategy as ttr

        return ttr
    if name == "mcts":
        if game_type != "ttr-sf":
            raise UnknownStrategy("mcts plays ttr-sf only (use planner for cable-car)")
        from bots.ttr_mcts import MctsBot

        return MctsBot(think_ms / 1000.0)
    raise UnknownStrategy(f"unknown strategy {name!r} (one of {', '.join(NAMES)})")


def parse_strategies(text: str, players: int, game_type: str) -> list[str]:
    """``a,b,c`` -> one strategy name per seat (a single name plays every seat;
    a shorter list repeats round the table).  Raises UnknownStrategy."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise UnknownStrategy("name at least one strategy")
    for name in names:
        if name not in NAMES:
            raise UnknownStrategy(f"unknown strategy {name!r} (one of {', '.join(NAMES)})")
        if name == "mcts" and game_type != "ttr-sf":
            raise UnknownStrategy("mcts plays ttr-sf only (use planner for cable-car)")
    return [names[i % len(names)] for i in range(players)]
