"""A third game defined only under ``tests/``: it proves that a game is one
:class:`~domain.core.GameDefinition` value and that nothing in ``service/`` or
``events/`` has to change to serve it (``tests/api/test_third_game.py``)."""

from tests.third_game.game import GAME

__all__ = ["GAME"]
