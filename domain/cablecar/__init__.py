"""San Francisco cable cars: the tile-laying game (a re-theme of Linie 1) as pure rules.

``GAME`` implements :class:`domain.core.GameDefinition` for type ``cable-car``.

Modules, from the bottom up: ``components`` (the packaged board file),
``geometry`` (squares, edges, rotation, stops, terminals), ``tiles``
(orientations and lookup tables), ``board``, ``state``, ``actions``,
``events``, ``placement`` (the placement rules, single-placement generation),
``pairs`` (fast enumeration of every legal pair), ``network`` (driving:
completeness, shortest path, path checking), ``ride`` (tram movement),
``drawing``, ``deal`` (setup), ``evolve``, ``rules`` (decide, legal actions,
turn order), ``view`` and ``game``.

Rulings this engine makes where the rules leave a choice (each documented in
its module):

* rule 4 is symmetric, and a terminal end counts as a neighbour with track
  (``placement``); an exchange must add track (``exchange_adds_no_track``);
* draws are automatic: the pile in order, then, once it is empty, riders'
  open hands clockwise from the drawer (``drawing``);
* a seat that can neither lay a tile nor start its ride passes
  automatically; when every seat has passed in a row the game ends
  ``stalled`` without a winner (``rules``);
* a ride may drive over another line's terminal loop (one space) but never
  over its own terminals; ``H`` stops at every stop tile and every terminal
  space (``network``, ``ride``);
* the sixth player's start tiles are searched out of the shuffled pile
  (``deal``).
"""

from domain.cablecar.game import GAME, CableCarGame

__all__ = ["GAME", "CableCarGame"]
