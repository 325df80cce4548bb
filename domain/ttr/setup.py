"""Game creation: the seeded shuffles and the opening events."""

from __future__ import annotations

from domain.core import Decision, Event, GameConfig
from domain.errors import InvalidConfig
from domain.rng import Rng
from domain.ttr.board import BOARD_VERSION, load_board
from domain.ttr.events import CardsDealt, GameSetUp, TicketsDealt
from domain.ttr.evolve import evolve, initial_state
from domain.ttr.state import RULES_VERSIONS
from domain.ttr.supply import restock

#: ``ttr-sf/4``: the rules of ``ttr-sf/3`` (a face-up row with 3+ ferries is re-checked after
#: every change to row, deck or discards; a turn's end is recorded in the move's last event), the
#: row reset for as long as a reset can still give a legal row
RULES_VERSION = RULES_VERSIONS[-1]
#: older rules still decided as they were, so records made under them verify
LEGACY_RULES_VERSIONS = RULES_VERSIONS[:-1]
MIN_PLAYERS = 2
MAX_PLAYERS = 4
CARDS_DEALT = 2
TICKETS_DEALT = 2
RNG_PURPOSE = "ttr-sf"


def _not_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _check_config(config: GameConfig) -> None:
    players = len(config.players)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidConfig(
            "player_count",
            f"Ticket to Ride: San Francisco takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}",
        )
    if not all(isinstance(name, str) for name in config.players):
        raise InvalidConfig("player_names", "player names must be strings")
    if not isinstance(config.seed, str) or _not_utf8(config.seed):
        raise InvalidConfig("seed", "the seed must be a string of valid Unicode text")
    if isinstance(config.start_seat, bool) or not isinstance(config.start_seat, int):
        raise InvalidConfig("start_seat", "start_seat must be an integer seat number")
    if not 0 <= config.start_seat < players:
        raise InvalidConfig(
            "start_seat", f"start_seat must be a seat 0..{players - 1}, not {config.start_seat}"
        )
    if config.rules_version not in (None, RULES_VERSION, *LEGACY_RULES_VERSIONS):
        raise InvalidConfig("rules_version", f"ttr-sf has no rules version {config.rules_version!r}")


def souvenir_layout(players: int, start_seat: int) -> tuple[int, int, tuple[int, ...]]:
    """(stack size, set-aside stack size, placing seats in order) for a game.

    3-4 players: stacks of 3 (4 players) or 2 (3 players); the last player in
    turn order places one set-aside stack, then the second-to-last places
    the other.  2 players: stacks of 2; the second player places both
    set-aside symbols as stacks of one token.
    """
    if players == 2:
        second = (start_seat + 1) % players
        return 2, 1, (second, second)
    size = 3 if players == 4 else 2
    return size, size, ((start_seat - 1) % players, (start_seat - 2) % players)


def setup(config: GameConfig) -> list[Event]:
    """The opening events: game_set_up, cards_dealt, the face-up row (with any
    ferry resets) and tickets_dealt.  Raises InvalidConfig."""
    _check_config(config)
    board = load_board()
    players = len(config.players)
    rng = Rng.from_seed(config.seed, RNG_PURPOSE)
    symbols, rng = rng.shuffle(board.souvenir_symbols)
    deck, rng = rng.shuffle(board.full_deck())
    tickets, rng = rng.shuffle([t.id for t in board.tickets])
    fixed = len(board.fixed_souvenir_locations)
    stack_size, set_aside_size, placers = souvenir_layout(players, config.start_seat)
    first = GameSetUp(
        players=tuple(config.players),
        start_seat=config.start_seat,
        rules_version=config.rules_version or RULES_VERSION,
        board_version=BOARD_VERSION,
        rng_key=rng.key,
        rng_counter=rng.counter,
        deck=deck,
        ticket_deck=tickets,
        souvenir_symbols=symbols[:fixed],
        stack_size=stack_size,
        set_aside=symbols[fixed:],
        set_aside_size=set_aside_size,
        placers=placers,
        time_control=config.time_control.to_json() if config.time_control.timed else None,
    )
    return opening_events(first)


def opening_events(first: GameSetUp) -> list[Event]:
    """``first`` followed by the deal: cards, the face-up row (with any ferry
    resets) and tickets, all taken from the top of the orders in ``first``."""
    if first.deck is None or first.ticket_deck is None:
        raise ValueError("opening_events needs the unredacted game_set_up event")
    players = len(first.players)
    deck, tickets = first.deck, first.ticket_deck
    decision = Decision(initial_state(first), evolve)
    decision.emit(CardsDealt(hands=tuple(deck[i * CARDS_DEALT : (i + 1) * CARDS_DEALT] for i in range(players))))
    restock(decision)
    decision.emit(
        TicketsDealt(
            tickets=tuple(tickets[i * TICKETS_DEALT : (i + 1) * TICKETS_DEALT] for i in range(players))
        )
    )
    return [first, *decision.events]
