"""Lifts of ``cable-car`` event payloads stored under older schema versions
(pure functions of the payload, declared in :data:`UPCASTERS`)."""

from __future__ import annotations

from domain.core import Upcast
from domain.turnends import WITHOUT_TURN_END, without_turn_end

UPCASTERS: tuple[Upcast, ...] = (
    # the carriers of a turn's end (``cable-car/3``) gained ``ends_turn``
    Upcast("tiles_laid", 1, without_turn_end, WITHOUT_TURN_END),
    Upcast("tiles_drawn", 1, without_turn_end, WITHOUT_TURN_END),
    Upcast("tile_drawn", 1, without_turn_end, WITHOUT_TURN_END),
    Upcast("die_rolled", 1, without_turn_end, WITHOUT_TURN_END),
)
