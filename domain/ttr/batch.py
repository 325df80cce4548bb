"""The event accumulator used while deciding a move.

Rules emit events one at a time; each is applied at once with
:func:`domain.ttr.evolve.evolve`, so later rules see the updated state and the
recorded events replay to exactly the state the decision ended in.
"""

from __future__ import annotations

from domain.core import Event
from domain.ttr.evolve import evolve
from domain.ttr.state import TtrState


class Batch:
    """The events of one decision so far and the state they lead to."""

    __slots__ = ("events", "state")

    def __init__(self, state: TtrState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        """Record ``event`` and apply it to :attr:`state`."""
        self.events.append(event)
        self.state = evolve(self.state, event)
