"""Drawing back up to a full hand.

After laying, a player draws until it holds ``hand_size`` (5) tiles, so each
exchange (whose removed tile went to the hand) means one draw less.

**Drawing from riders' hands** (``cable-car/4``, the rulebook: "Om det inte
finns några rälskort kvar i förrådet för övriga spelare får de plocka av
dessa kort", *if no tiles are left in the supply, the other players may take
from these tiles*).  A riding player's hand is open, but the others draw
from the pile as long as it holds tiles.  Once the pile is empty, a player
drawing back up chooses tile by tile a tile of a riding player's hand (which
rider, which tile).  **Ruling:** a draw needing more tiles than the pile
still holds takes the rest of the pile first (``tiles_drawn``), then chooses
from riders' hands for the remainder.  The choice is a move of its own
(``draw_tile``, offered by ``legal-actions``) made after ``lay_tiles``, one
tile at a time, until the hand is full.  Where no choice exists the draw
stays automatic: the riders together hold no more tiles than are needed, or
only one distinct tile can be taken: every such tile, riders clockwise from
the drawer, each giving its longest-held tiles first.

Under ``cable-car/2`` and ``/3`` the choice came as soon as a rider held a
tile: tile by tile, the top of the pile or a rider's tile, the pile still
holding tiles or not (the same automatic cases otherwise, and when no rider
held a tile, the pile in order).  Under ``cable-car/1`` (board ``rules`` 1)
every draw was automatic: pile first, riders only once it was empty.

When neither source has tiles left the player plays on with a short hand.
"""

from __future__ import annotations

import dataclasses

from domain.cablecar.actions import SOURCE_PILE, SOURCE_RIDER, DrawTile
from domain.cablecar.components import COMPONENTS
from domain.cablecar.events import TileDrawn, TilesDrawn
from domain.cablecar.state import RULEBOOK_DRAW_AND_RIDE, CableCarState
from domain.cablecar.turns import end_turn
from domain.core import Decision
from domain.errors import IllegalAction

HAND_SIZE = COMPONENTS.hand_size


def need(state: CableCarState, seat: int) -> int:
    """How many tiles ``seat`` still has to draw to hold a full hand."""
    return max(0, HAND_SIZE - len(state.players[seat].hand))


def _riders(state: CableCarState, seat: int) -> list[int]:
    """Riding seats holding tiles, clockwise from the seat after ``seat``."""
    out = []
    other = state.next_seat(seat)
    while other != seat:
        if state.players[other].riding and state.players[other].hand:
            out.append(other)
        other = state.next_seat(other)
    return out


def draw_options(state: CableCarState, seat: int) -> list[DrawTile]:
    """Every distinct single draw open to ``seat``: the pile, then each rider's distinct tiles."""
    out = [DrawTile(SOURCE_PILE)] if state.pile else []
    for rider in _riders(state, seat):
        out += [DrawTile(SOURCE_RIDER, rider, tile) for tile in dict.fromkeys(state.players[rider].hand)]
    return out


def has_choice(state: CableCarState, seat: int) -> bool:
    """Whether ``seat``'s next draw is its choice (see the module's ruling)."""
    if state.board.rules < 2 or need(state, seat) == 0:
        return False
    if state.pile and state.rules >= RULEBOOK_DRAW_AND_RIDE:
        return False  # riders' hands only once the pile is empty
    riders = _riders(state, seat)
    if not riders:
        return False
    held = sum(len(state.players[r].hand) for r in riders)
    if not state.pile and held <= need(state, seat):
        return False
    return len(draw_options(state, seat)) > 1


def draw_up(state: CableCarState, seat: int) -> TilesDrawn | None:
    """The automatic draw of ``seat`` (None when it needs or finds nothing)."""
    missing = need(state, seat)
    if missing <= 0:
        return None
    from_pile = state.pile[:missing]
    missing -= len(from_pile)
    from_riders: list[tuple[int, str]] = []
    other = state.next_seat(seat)
    while missing > 0 and other != seat:
        rider = state.players[other]
        if rider.riding:
            taken = rider.hand[:missing]
            from_riders.extend((other, tile) for tile in taken)
            missing -= len(taken)
        other = state.next_seat(other)
    if not from_pile and not from_riders:
        return None
    return TilesDrawn(seat, tuple(from_pile), tuple(from_riders))


def _pile_emptied(state: CableCarState, seat: int) -> CableCarState:
    """``state`` after ``seat`` took the rest of the pile."""
    player = state.players[seat]
    taken = dataclasses.replace(player, hand=player.hand + state.pile)
    return dataclasses.replace(state.with_player(seat, taken), pile=())


def finish_turn(decision: Decision[CableCarState], seat: int) -> None:
    """After laying (or a chosen draw): wait for ``seat``'s choice when it has
    one (under ``cable-car/4`` after taking the rest of a pile too short for the
    draw, when riders' hands then offer a choice), else draw automatically and
    end the turn."""
    state = decision.state
    if (
        state.rules >= RULEBOOK_DRAW_AND_RIDE
        and 0 < len(state.pile) < need(state, seat)
        and has_choice(_pile_emptied(state, seat), seat)
    ):
        decision.emit(TilesDrawn(seat, state.pile, ()))
        return
    if has_choice(state, seat):
        return
    drawn = draw_up(decision.state, seat)
    if drawn is not None:
        decision.emit(drawn)
    end_turn(decision, seat)


def check_draw(state: CableCarState, seat: int, action: DrawTile) -> TileDrawn:
    """The event of a chosen draw; raises IllegalAction when it cannot be made."""
    if not state.drawing:
        raise IllegalAction("not_drawing", "tiles are drawn after laying, when a choice of source exists")
    if action.source == SOURCE_PILE:
        if not state.pile:
            raise IllegalAction("pile_empty", "the pile is empty: draw from a riding player's hand")
        return TileDrawn(seat, SOURCE_PILE, None, state.pile[0])
    rider, tile = action.rider, action.tile
    assert rider is not None and tile is not None  # the action's shape guarantees both
    if (
        not 0 <= rider < state.player_count
        or rider == seat
        or not state.players[rider].riding
        or state.out[rider] is not None
    ):
        raise IllegalAction("not_a_rider", f"seat {rider} is not another player riding its tram (and still in)")
    if tile not in state.players[rider].hand:
        raise IllegalAction("tile_not_in_hand", f"seat {rider} holds no {tile} tile")
    return TileDrawn(seat, SOURCE_RIDER, rider, tile)
