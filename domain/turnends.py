"""A turn's end carried by the move's last event (both games' third rules version).

A turn used to end with an event of its own (``turn_ended``): about one stored
row in three.  Under ``ttr-sf/3`` and ``cable-car/3`` the event a move
ends with says so instead (``ends_turn: true``), when it is one of the game's
*carriers* (the events that commonly end a turn); ``evolve`` then applies the
event and exactly what ``turn_ended`` would have.  Rarer paths (a turn ended
by a forfeit or after an automatic pass) still record ``turn_ended``.

Carriers gained the field with a new schema version; each game's upcasters
lift their older payloads (which never ended a turn) with :func:`without_turn_end`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from domain.core import JSON, Decision, Event

#: the field of a carrier event saying that the turn ended with it
ENDS_TURN = "ends_turn"


def carry_turn_end(decision: Decision[Any], carriers: tuple[type[Event], ...]) -> bool:
    """Mark the decision's last event as ending the turn if it is one of
    ``carriers``; return whether it did (else the caller records ``turn_ended``)."""
    last = decision.events[-1] if decision.events else None
    if not isinstance(last, carriers):
        return False
    decision.amend_last(dataclasses.replace(last, **{ENDS_TURN: True}))
    return True


def carries_turn_end(event: Event) -> bool:
    """Whether ``event`` carries the end of its turn."""
    return getattr(event, ENDS_TURN, False) is True


#: the carriers' payloads before the field (:attr:`domain.core.Upcast.older`)
WITHOUT_TURN_END: tuple[tuple[str, Any], ...] = ((ENDS_TURN, None),)


def without_turn_end(payload: Mapping[str, JSON]) -> dict[str, JSON]:
    """A carrier's payload from before the field: it did not end the turn
    (the turn's end, if any, is the ``turn_ended`` stored after it).

    Raises ValueError for a payload that is not an object or already says."""
    if not isinstance(payload, Mapping):
        raise ValueError(f"a payload must be an object, got {type(payload).__name__}")
    if ENDS_TURN in payload:
        raise ValueError(f"'{ENDS_TURN}' is already present before the schema version that added it")
    return {**payload, ENDS_TURN: False}
