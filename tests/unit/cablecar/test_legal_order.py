"""The documented order of cable-car legal actions (clients page through it):
ride actions first, then lay pairs grouped by the first placement's square in
row-major order, with adjacent double exchanges (both placements exchanges)
as the only tail allowed to restart the order."""

from __future__ import annotations

import random

from domain.cablecar import GAME
from domain.core import GameConfig, replay


def test_lay_pairs_are_grouped_by_first_square() -> None:
    state = replay(GAME, GAME.setup(GameConfig(("a", "b", "c"), "order", 0)))
    rng = random.Random(1)
    for _ in range(12):
        seat = GAME.active_seats(state)[0]
        actions = GAME.legal_actions(state, seat)
        kinds = [a.TYPE for a in actions]
        assert kinds == sorted(kinds, key=lambda k: k == "lay_tiles"), "ride actions come first"
        lays = [a for a in actions if a.TYPE == "lay_tiles"]
        squares = [(a.placements[0].row, a.placements[0].col) for a in lays]  # type: ignore[attr-defined]
        breaks = [i for i in range(1, len(squares)) if squares[i] < squares[i - 1]]
        assert len(breaks) <= 1
        if breaks:
            tail = lays[breaks[0]:]
            occupied = {(t["row"], t["col"]) for t in GAME.view(state, None)["tiles"]}
            for action in tail:
                assert all((p.row, p.col) in occupied for p in action.placements)  # type: ignore[attr-defined]
        state = replay(GAME, GAME.decide(state, seat, rng.choice(actions)), state)
