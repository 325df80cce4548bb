"""San Francisco cable cars: the tile-laying game (a re-theme of Linie 1) as pure rules.

``GAME`` implements :class:`domain.core.GameDefinition` for type ``cable-car``.
Modules, from the bottom up: ``components`` (the packaged board file),
``geometry`` (squares, edges, rotation, stops, terminals), ``tiles``
(orientations and lookup tables), ``board``, ``state``, ``actions``,
``events``, ``placement`` (the placement rules and fast move generation),
``network`` (driving: completeness, shortest path, path checking), ``ride``
(tram movement), ``drawing``, ``deal`` (setup), ``evolve``, ``rules``
(decide, legal actions, turn order), ``view`` and ``game``.
"""

from domain.cablecar.game import GAME, CableCarGame

__all__ = ["GAME", "CableCarGame"]
