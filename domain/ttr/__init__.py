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

Rules versions (``docs/rules/versions.md``; state ``rules`` is N for
``ttr-sf/N``): ``ttr-sf/1`` re-checked a stuck three-ferry row only when a
card was turned up; ``ttr-sf/2`` after every change to row, deck or discards;
``ttr-sf/3`` has the rules of ``/2`` and records a turn's end in the move's
last event (``ends_turn``, :mod:`domain.turnends`) instead of a ``turn_ended``
of its own; ``ttr-sf/4``, the current one, resets a three-ferry row for as
long as a reset can still give a legal row (``/1`` to ``/3`` stopped after
``len(deck) + len(discard)`` resets).  Games created under ``/1`` to ``/3``
are still decided as they were, so their records verify.
"""

from domain.ttr.game import GAME
from domain.ttr.state import TtrState

__all__ = ["GAME", "TtrState"]
