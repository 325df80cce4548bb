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
  placement rules, single-placement generation), ``ends`` (rule 5, further
  travel), ``pairs`` (fast enumeration
  of every legal pair), ``network`` (driving: completeness, shortest path,
  path checking), ``ride`` (tram movement), ``drawing``.

Rulings this engine makes where the rules leave a choice (each documented in
its module):

* rule 4 is symmetric, and a terminal end counts as a neighbour with track
  (``placement``); an exchange must add track (``exchange_adds_no_track``);
* rule 5 (further travel): no track may lead into an empty square that no
  tile of the set could ever fill given its permanent surroundings (board
  edge, stops, terminal fronts, track leading in, tree tiles' bare edges),
  and no tree tile may close such a square that track already leads into
  (``ends``, refused as ``dead_end``);
* drawing back up: riders' open hands are drawn from once the pile is
  empty (the rulebook); a draw longer than the pile takes its rest first,
  then the drawer chooses tile by tile a tile of a riding player's hand
  (``draw_tile``); the draw is automatic only where no choice exists
  (``drawing``);
* the ride is due: a seat whose network is complete at the start of its
  turn may only start its ride or resign (``ride_due``, ``turns``);
* a seat that can neither lay a tile nor start its ride passes
  automatically; when every seat has passed in a row (a whole round with
  no tile laid and no tram moved) the game ends ``stalled``, with no
  winner (``turns``);
* rules versions (``docs/rules/versions.md``; state ``rules`` is N for
  ``cable-car/N``): ``cable-car/2`` has the further-travel ruling and a
  draw choice between the pile and riders' hands as soon as a rider holds a
  tile; ``cable-car/3`` has the rules of ``/2`` and records a turn's end in
  the move's last event (``ends_turn``, :mod:`domain.turnends`) instead of a
  ``turn_ended`` of its own; ``cable-car/4``, the current one, has the rules
  of ``/3`` but the rulebook's draw (riders' hands once the pile is empty)
  and due ride above.  Games created under ``cable-car/1`` (board ``rules``
  1: no further-travel check, every draw automatic), ``/2`` and ``/3`` are
  still decided as they were, so their records verify;
* a ride may drive over another line's terminal loop (one space) but never
  over its own terminals; ``H`` stops at every stop tile and every terminal
  space (``network``, ``ride``);
* the sixth player's start tiles are searched out of the shuffled pile
  (``setup``).
"""

from domain.cablecar.game import GAME
from domain.cablecar.state import CableCarState

__all__ = ["CableCarState", "GAME"]
