"""The bots a game type offers (``service.usecases.bot_seats``) are the
strategies the runner plays, and each game type served has some."""

from __future__ import annotations

import pytest

from bots.strategies import NAMES, UnknownStrategy, strategy
from domain.registry import all_games
from service.usecases.bot_seats import BOTS, bots_of_type


@pytest.mark.parametrize("type_id", sorted(BOTS))
def test_every_offered_bot_is_a_strategy_for_its_type(type_id: str) -> None:
    for name in bots_of_type(type_id):
        assert name in NAMES
        assert callable(strategy(name, type_id))


def test_a_strategy_a_type_does_not_offer_is_refused_by_it() -> None:
    assert "mcts" not in bots_of_type("cable-car")
    with pytest.raises(UnknownStrategy):
        strategy("mcts", "cable-car")


def test_both_served_games_offer_bots() -> None:
    served = {g.type_id for g in all_games()}
    assert {"ttr-sf", "cable-car"} <= served
    assert all(bots_of_type(t) for t in ("ttr-sf", "cable-car"))
