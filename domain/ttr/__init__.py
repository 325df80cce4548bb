"""Ticket to Ride: San Francisco (``ttr-sf``): the pure rules core.

``GAME`` (:mod:`.game`) is the game's :class:`domain.core.GameDefinition`.
Modules, by job (the same names as every game's):

* ``actions`` (action dataclasses and their body fields), ``events``,
  ``state``, ``setup``, ``evolve``;
* ``rules`` (one decide function per move, ``MOVES``), ``legal`` (legal
  actions), ``turns`` (turn order, last round, automatic passes, the end);
* ``view`` (view and redacted events), ``scoring`` (scores, result,
  standings), ``upcasters``, ``game``;
* game helpers: ``board``, ``cards``, ``supply`` (deck, face-up row),
  ``claims``, ``payment``.
"""

from domain.ttr.game import GAME
from domain.ttr.state import TtrState

__all__ = ["GAME", "TtrState"]
