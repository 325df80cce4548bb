"""The ``ttr-sf`` game definition: metadata plus the rule functions."""

from __future__ import annotations

from collections.abc import Mapping

from domain.core import JSON, Action, Event, GameConfig
from domain.ttr.actions import action_of, parse_action
from domain.ttr.board import BOARD_VERSION, load_board
from domain.ttr.events import EVENT_TYPES
from domain.ttr.evolve import evolve
from domain.ttr.legal import legal_actions
from domain.ttr.rules import decide
from domain.ttr.scoring import result
from domain.ttr.setup import MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION, setup
from domain.ttr.state import TtrState
from domain.ttr.view import redact, view


class TtrGame:
    """Ticket to Ride: San Francisco, implementing :class:`domain.core.GameDefinition`."""

    type_id: str = "ttr-sf"
    title: str = "Ticket to Ride: San Francisco"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    rules_version: str = RULES_VERSION
    board_version: str = BOARD_VERSION
    event_types: Mapping[str, type[Event]] = EVENT_TYPES

    def board(self) -> dict[str, JSON]:
        """The static board (locations, routes, tickets, tables) for clients."""
        return load_board().to_json()

    def setup(self, config: GameConfig) -> list[Event]:
        """The opening events; InvalidConfig on a wrong player count or start seat."""
        return setup(config)

    def evolve(self, state: TtrState | None, event: Event) -> TtrState:
        """Apply one event."""
        return evolve(state, event)

    def parse_action(self, body: Mapping[str, JSON]) -> Action:
        """Parse a JSON action body; MalformedAction on a bad shape."""
        return parse_action(body)

    def decide(self, state: TtrState, seat: int, action: Action) -> list[Event]:
        """The events the action produces, or a DomainError."""
        return decide(state, seat, action)

    def legal_actions(self, state: TtrState, seat: int) -> list[Action]:
        """Every action the seat may send now."""
        return legal_actions(state, seat)

    def action_of(self, event: Event) -> tuple[int, Action] | None:
        """The (seat, action) opening a move with ``event``, or None."""
        return action_of(event)

    def status(self, state: TtrState) -> str:
        """``setup``, ``playing``, ``last_round`` or ``finished``."""
        return state.status

    def active_seats(self, state: TtrState) -> tuple[int, ...]:
        """The seats that may act now."""
        return state.active_seats()

    def view(self, state: TtrState, seat: int | None) -> dict[str, JSON]:
        """The state as ``seat`` (None: spectator) may see it."""
        return view(state, seat)

    def redact(self, state: TtrState, event: Event, seat: int | None) -> dict[str, JSON]:
        """``event``'s payload with other seats' secrets removed (until the end)."""
        return redact(state, event, seat)

    def result(self, state: TtrState) -> dict[str, JSON] | None:
        """The final result once finished, else None."""
        return result(state)


GAME = TtrGame()
