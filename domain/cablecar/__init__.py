"""San Francisco cable cars: the tile-laying game (a re-theme of Linie 1) as pure rules.

``GAME`` (:mod:`.game`) is the game's :class:`domain.core.GameDefinition`
for type ``cable-car``.  Modules, by job (the same names as every game's):

* ``actions`` (action dataclasses and their body fields), ``events``,
  ``state``, ``setup``, ``evolve``;
* ``rules`` (one decide function per move, ``MOVES``), ``legal`` (legal
  actions), ``turns`` (turn order, automatic passes, the stalled end);
* ``view`` (status, view, redacted events, the static board), ``scoring``
  (result, standings), ``game``;
* game helpers, from the bottom up: ``components`` (the packaged board
  file), ``geometry`` (squares, edges, rotation, stops, terminals),
  ``tiles`` (orientations and lookup tables), ``board``, ``placement`` (the
  placement rules, single-placement generation), ``pairs`` (fast enumeration
  of every legal pair), ``network`` (driving: completeness, shortest path,
  path checking), ``ride`` (tram movement), ``drawing``.

Rulings this engine makes where the rules leave a choice (each documented in
its module):

* rule 4 is symmetric, and a terminal end counts as a neighbour with track
  (``placement``); an exchange must add track (``exchange_adds_no_track``);
* draws are automatic: the pile in order, then, once it is empty, riders'
  open hands clockwise from the drawer (``drawing``);
* a seat that can neither lay a tile nor start its ride passes
  automatically; when every seat has passed in a row the game ends
  ``stalled`` without a winner (``turns``);
* a ride may drive over another line's terminal loop (one space) but never
  over its own terminals; ``H`` stops at every stop tile and every terminal
  space (``network``, ``ride``);
* the sixth player's start tiles are searched out of the shuffled pile
  (``setup``).
"""

from domain.cablecar.game import GAME
from domain.cablecar.state import CableCarState

__all__ = ["CableCarState", "GAME"]
