"""The ``cable-car`` game definition: the object the registry serves."""

from __future__ import annotations

from collections.abc import Mapping

from domain.cablecar import deal, rules, view
from domain.cablecar.actions import LayTiles, Placement, Roll, StartRide, parse_action
from domain.cablecar.components import COMPONENTS
from domain.cablecar.events import EVENT_TYPES, DieRolled, RideStarted, TilesLaid
from domain.cablecar.evolve import evolve
from domain.cablecar.state import GameState
from domain.core import JSON, Action, Event, GameConfig, replay


class CableCarGame:
    """San Francisco cable cars: lay track, then ride it (implements ``GameDefinition``)."""

    type_id = "cable-car"
    title = "San Francisco cable cars"
    min_players = COMPONENTS.min_players
    max_players = COMPONENTS.max_players
    rules_version = deal.RULES_VERSION
    board_version = deal.BOARD_VERSION
    event_types: Mapping[str, type[Event]] = EVENT_TYPES

    def board(self) -> dict[str, JSON]:
        """Static board data a client needs to render the game."""
        return view.board_payload()

    def setup(self, config: GameConfig) -> list[Event]:
        """The setup event plus any opening passes; raises InvalidConfig."""
        first = deal.deal(config)
        return [first, *rules.opening_events(replay(self, [first]))]

    def evolve(self, state: GameState | None, event: Event) -> GameState:
        """Apply one event."""
        return evolve(state, event)

    def parse_action(self, body: Mapping[str, JSON]) -> Action:
        """Turn a JSON body into an action; raises MalformedAction."""
        return parse_action(body)

    def decide(self, state: GameState, seat: int, action: Action) -> list[Event]:
        """The events of an accepted action; raises DomainError if refused."""
        return rules.decide(state, seat, action)

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """Every action ``seat`` may send now."""
        return rules.legal_actions(state, seat)

    def action_of(self, event: Event) -> tuple[int, Action] | None:
        """The (seat, action) a move's first event came from, else None."""
        if isinstance(event, TilesLaid):
            placements = tuple(
                Placement(p["tile"], p["row"], p["col"], p["rotation"]) for p in event.placements
            )
            return event.seat, LayTiles(placements)
        if isinstance(event, RideStarted):
            path = tuple(s if isinstance(s, str) else (int(s[0]), int(s[1])) for s in event.spaces[1:-1])
            return event.seat, StartRide(event.origin, path)
        if isinstance(event, DieRolled):
            return event.seat, Roll()
        return None

    def status(self, state: GameState) -> str:
        """``playing`` or ``finished``."""
        return view.status(state)

    def active_seats(self, state: GameState) -> tuple[int, ...]:
        """The seat whose turn it is."""
        return rules.active_seats(state)

    def view(self, state: GameState, seat: int | None) -> dict[str, JSON]:
        """The state as ``seat`` may see it."""
        return view.view(state, seat)

    def redact(self, state: GameState, event: Event, seat: int | None) -> dict[str, JSON]:
        """``event``'s payload as ``seat`` may see it now."""
        return view.redact(state, event, seat)

    def result(self, state: GameState) -> dict[str, JSON] | None:
        """The winners once finished."""
        return view.result(state)


GAME = CableCarGame()
