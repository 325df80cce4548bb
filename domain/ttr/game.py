"""``GAME``: Ticket to Ride: San Francisco as one declared value."""

from __future__ import annotations

from domain.core import GameDefinition
from domain.forfeits import standings_of
from domain.ttr.actions import action_of
from domain.ttr.board import BOARD_VERSION, board_json
from domain.ttr.events import EVENT_CLASSES
from domain.ttr.evolve import evolve
from domain.ttr.legal import legal_actions
from domain.ttr.rules import MOVES
from domain.ttr.scoring import result, standings
from domain.ttr.setup import LEGACY_RULES_VERSIONS, MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION, setup
from domain.ttr.state import TtrState
from domain.ttr.turns import forfeit
from domain.ttr.upcasters import UPCASTERS
from domain.ttr.view import redact, view

GAME: GameDefinition[TtrState] = GameDefinition(
    type_id="ttr-sf",
    title="Ticket to Ride: San Francisco",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version=RULES_VERSION,
    board_version=BOARD_VERSION,
    events=EVENT_CLASSES,
    moves=MOVES,
    board=board_json,
    setup=setup,
    evolve=evolve,
    legal_actions=legal_actions,
    action_of=action_of,
    status=lambda state: state.status,
    active_seats=TtrState.active_seats,
    seat_count=lambda state: state.num_players,
    is_over=lambda state: state.finished,
    view=view,
    redact=redact,
    result=result,
    standings=standings,
    forfeit=forfeit,
    seat_standings=lambda state: standings_of(state.out),
    turn_number=lambda state: state.turns,
    time_control=lambda state: state.time_control,
    upcasters=UPCASTERS,
    legacy_rules_versions=LEGACY_RULES_VERSIONS,
)
