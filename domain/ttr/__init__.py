"""Ticket to Ride: San Francisco (``ttr-sf``): the pure rules core.

``GAME`` implements :class:`domain.core.GameDefinition`; the modules hold the
board (:mod:`.board`), cards (:mod:`.cards`), state (:mod:`.state`), actions
(:mod:`.actions`), events (:mod:`.events`), ``evolve`` (:mod:`.evolve`),
``decide`` (:mod:`.rules` with :mod:`.supply`, :mod:`.claims`,
:mod:`.payment`, :mod:`.turns`), :mod:`.setup`, :mod:`.legal`,
:mod:`.scoring` and :mod:`.view`.
"""

from domain.ttr.game import GAME, TtrGame
from domain.ttr.state import TtrState

__all__ = ["GAME", "TtrGame", "TtrState"]
