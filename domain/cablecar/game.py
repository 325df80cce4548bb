"""``GAME``: San Francisco cable cars as one declared value."""

from __future__ import annotations

from domain.cablecar.actions import action_of
from domain.cablecar.components import COMPONENTS
from domain.cablecar.events import EVENT_CLASSES
from domain.cablecar.evolve import evolve
from domain.cablecar.legal import legal_actions, legal_actions_at
from domain.cablecar.outs import forfeit
from domain.cablecar.rules import MOVES
from domain.cablecar.scoring import result, standings
from domain.cablecar.setup import BOARD_VERSION, LEGACY_RULES_VERSIONS, RULES_VERSION, setup
from domain.cablecar.state import CableCarState
from domain.cablecar.turns import active_seats
from domain.cablecar.upcasters import UPCASTERS
from domain.cablecar.view import board_payload, redact, status, view
from domain.core import GameDefinition
from domain.forfeits import standings_of

GAME: GameDefinition[CableCarState] = GameDefinition(
    type_id="cable-car",
    title="San Francisco cable cars",
    min_players=COMPONENTS.min_players,
    max_players=COMPONENTS.max_players,
    rules_version=RULES_VERSION,
    board_version=BOARD_VERSION,
    events=EVENT_CLASSES,
    moves=MOVES,
    board=board_payload,
    setup=setup,
    evolve=evolve,
    legal_actions=legal_actions,
    action_of=action_of,
    status=status,
    active_seats=active_seats,
    seat_count=lambda state: state.player_count,
    is_over=lambda state: state.finished,
    view=view,
    redact=redact,
    result=result,
    standings=standings,
    forfeit=forfeit,
    seat_standings=lambda state: standings_of(state.out),
    turn_number=lambda state: state.turn_number,
    time_control=lambda state: state.time_control,
    upcasters=UPCASTERS,
    legacy_rules_versions=LEGACY_RULES_VERSIONS,
    legal_actions_at=legal_actions_at,
)
