"""Bots playing whole games in process, through the pure rules (no HTTP, no store).

Each seat gets exactly what a client would get over HTTP: its own view
(``GAME.view(state, seat)``) and its legal actions as ready-to-send bodies;
the chosen body is parsed and decided like a request.  For a cable-car lay
turn the list is the first page a client would fetch (up to
:data:`FIRST_PAGE` pairs, in the server's order): the whole list can hold
well over 100 000 pairs, and a planning bot builds its own tiles from the
view anyway.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.strategies import Strategy
from domain.cablecar.actions import LayTiles, StartRide
from domain.cablecar.candidates import seconds_after, single_placements
from domain.cablecar.network import best_path, line_terminals
from domain.cablecar.state import CableCarState
from domain.cablecar.turns import ride_due
from domain.core import Action, GameConfig, GameDefinition, replay
from domain.errors import DomainError
from domain.registry import game_definition

FIRST_PAGE = 1000
#: moves after which a game is cut off (no real game comes near it)
MAX_MOVES = 3000


class BotError(Exception):
    """A bot sent an action the rules refuse (a bug in the bot: the game cannot go on)."""

    def __init__(self, seed: str, seat: int, strategy: str, body: dict[str, Any], error: DomainError) -> None:
        super().__init__(f"game {seed!r}: seat {seat} ({strategy}) sent {body}: {error.code}: {error.detail}")
        self.seed, self.seat, self.strategy, self.body, self.code = seed, seat, strategy, body, error.code

    def __reduce__(self) -> tuple[Any, ...]:
        # picklable across processes (the ladder plays games in a process pool)
        return (_rebuilt, (str(self), self.seed, self.seat, self.strategy, self.body, self.code))


def _rebuilt(message: str, seed: str, seat: int, strategy: str, body: dict[str, Any], code: str) -> BotError:
    error = BotError.__new__(BotError)
    Exception.__init__(error, message)
    error.seed, error.seat, error.strategy, error.body, error.code = seed, seat, strategy, body, code
    return error


@dataclass
class GameRecord:
    """One finished in-process game: who played what and how it ended."""

    game_type: str
    seed: str
    strategies: tuple[str, ...]
    winners: tuple[int, ...]
    reason: str | None
    scores: tuple[int | None, ...]
    moves: int
    turns: int
    #: per seat: the CPU seconds of the deciding thread per decision (what the bot itself
    #: used, whatever else shares the machine)
    think: list[list[float]] = field(default_factory=list)
    #: per seat: the wall-clock seconds per decision
    think_wall: list[list[float]] = field(default_factory=list)
    #: why the game could not go on (a bot's refused action), else None
    error: str | None = None


def _cablecar_first_page(state: CableCarState, seat: int, page: int) -> list[Action]:
    """The legal actions of a cable-car lay turn up to ``page`` lay pairs, cheaply."""
    player = state.players[seat]
    out: list[Action] = []
    if best_path(state.board, player.line, player.route) is not None:
        out += [StartRide(t.name) for t in line_terminals(player.line)]
        if ride_due(state, seat):
            return out  # cable-car/4: nothing else is legal
    if page <= 0:
        return out
    singles = single_placements(state.board, player.hand)
    for first in singles:
        out += [LayTiles((first, second)) for second in seconds_after(state.board, player.hand, first)]
        if len(out) >= page:
            return out[:page]
    if not any(isinstance(a, LayTiles) for a in out):
        out += [LayTiles((p,)) for p in singles]
    return out[:page]


def legal_bodies(game: GameDefinition[Any], state: Any, seat: int, lay_page: int = FIRST_PAGE) -> list[dict[str, Any]]:
    """The legal actions of ``seat`` as bodies; a cable-car lay turn lists at most
    ``lay_page`` lay pairs (0: none, for bots that build their own from the view)."""
    if game.type_id == "cable-car" and not state.drawing and not state.players[seat].riding:
        actions = _cablecar_first_page(state, seat, lay_page)
    else:
        actions = list(game.legal_actions(state, seat))
    return [a.to_body() for a in actions]


def play(
    game_type: str,
    strategies: Sequence[tuple[str, Strategy]],
    seed: str,
    rng: random.Random,
    max_moves: int = MAX_MOVES,
) -> GameRecord:
    """Play one seeded game, seat ``i`` by ``strategies[i]`` (name, strategy).

    Cable-car seats played by ``planner`` get no lay pairs listed (it lays from the view)."""
    game = game_definition(game_type)
    names = tuple(f"{name}-{i + 1}" for i, (name, _) in enumerate(strategies))
    state = replay(game, game.setup(GameConfig(names, seed)))
    think: list[list[float]] = [[] for _ in strategies]
    wall: list[list[float]] = [[] for _ in strategies]
    moves = 0
    while not game.is_over(state) and moves < max_moves:
        seat = game.active_seats(state)[0]
        view = game.view(state, seat)
        bodies = legal_bodies(game, state, seat, 0 if strategies[seat][0] == "planner" else FIRST_PAGE)
        started, cpu = time.perf_counter(), time.thread_time()
        body = strategies[seat][1](view, bodies, rng)
        think[seat].append(time.thread_time() - cpu)
        wall[seat].append(time.perf_counter() - started)
        try:
            events = game.decide(state, seat, game.parse_action(body))
        except DomainError as e:
            raise BotError(seed, seat, strategies[seat][0], body, e) from e
        state = replay(game, events, state)
        moves += 1
    result = game.result(state) or {}
    standings = game.standings(state) or ()
    scores = tuple(s.score for s in standings) if standings else (None,) * len(strategies)
    turns = getattr(state, "turn_number", moves)
    return GameRecord(
        game_type=game_type,
        seed=seed,
        strategies=tuple(name for name, _ in strategies),
        winners=tuple(result.get("winners") or ()),
        reason=result.get("reason") if game.is_over(state) else "cut_off",
        scores=scores,
        moves=moves,
        turns=int(turns),
        think=think,
        think_wall=wall,
    )
