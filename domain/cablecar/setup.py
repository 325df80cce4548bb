"""Setting a game up: dealing secret cards, start tiles and the seeded pile,
then any passes due before the first move.

* Lines and route cards are dealt from decks shuffled with the game's
  :class:`~domain.rng.Rng` (purpose ``cable-car``): 3-stop cards for 2-3
  players, 2-stop cards for 4-6; a seat's route is its card's row for its line.
* Start tiles: in turn order from the start seat, each of the first five
  players takes 3 straights and 2 curves from the 25 start tiles.  Unused
  start tiles join the pile.
* The pile (every other tile) is shuffled.  **Ruling** for a sixth player:
  its start tiles are searched out of the shuffled pile from the top, 3
  straights and 2 curves if present, the rest made up from the top.
* The generator's position after these shuffles drives the die.
"""

from __future__ import annotations

from collections import Counter

from domain.cablecar.components import COMPONENTS
from domain.cablecar.events import GameSetUp
from domain.cablecar.evolve import evolve
from domain.cablecar.state import RULES_VERSIONS
from domain.cablecar.turns import open_play
from domain.core import Decision, Event, GameConfig
from domain.errors import InvalidConfig
from domain.rng import Rng

#: ``cable-car/4``: the rules of ``cable-car/3`` (the further-travel ruling; a turn's end recorded
#: in the move's last event), but riders' hands are drawn from only once the pile is empty, and a
#: seat whose network is complete at the start of its turn must start its ride
RULES_VERSION = RULES_VERSIONS[-1]
#: older rules still decided as they were, so records made under them verify
LEGACY_RULES_VERSIONS = RULES_VERSIONS[:-1]
BOARD_VERSION = "cable-car/1"
RNG_PURPOSE = "cable-car"


def _start_hand() -> tuple[str, ...]:
    return tuple(tile for tile, count in COMPONENTS.start_hand.items() for _ in range(count))


def _search(pile: list[str], wanted: tuple[str, ...]) -> tuple[str, ...]:
    """Take ``wanted`` out of ``pile`` (top first), making up shortfalls from the top."""
    taken: list[str] = []
    for tile in wanted:
        if tile in pile:
            pile.remove(tile)
            taken.append(tile)
    while len(taken) < len(wanted) and pile:
        taken.append(pile.pop(0))
    return tuple(taken)


def validate(config: GameConfig) -> None:
    """Raise InvalidConfig unless the config can start a cable-car game."""
    n = len(config.players)
    if not COMPONENTS.min_players <= n <= COMPONENTS.max_players:
        raise InvalidConfig(
            "player_count",
            f"cable-car needs {COMPONENTS.min_players}-{COMPONENTS.max_players} players, not {n}",
        )
    if not 0 <= config.start_seat < n:
        raise InvalidConfig("start_seat", f"start seat {config.start_seat} is not a seat of {n} players")
    if config.rules_version not in (None, RULES_VERSION, *LEGACY_RULES_VERSIONS):
        raise InvalidConfig("rules_version", f"cable-car has no rules version {config.rules_version!r}")


def setup(config: GameConfig) -> list[Event]:
    """The opening events: the setup event, then the passes due if the first
    seat cannot act; raises InvalidConfig."""
    first = deal(config)
    decision = Decision(evolve(None, first), evolve)
    open_play(decision)
    return [first, *decision.events]


def deal(config: GameConfig) -> GameSetUp:
    """The setup event of a new game (all randomness drawn here)."""
    validate(config)
    n = len(config.players)
    rng = Rng.from_seed(config.seed, RNG_PURPOSE)
    lines, rng = rng.shuffle([line.id for line in COMPONENTS.lines])
    deck = COMPONENTS.route_cards_for(n)
    cards, rng = rng.shuffle(list(range(len(deck))))
    start_supply: Counter[str] = Counter({t.id: t.start_tiles for t in COMPONENTS.tile_types})
    hand = _start_hand()
    order = [(config.start_seat + k) % n for k in range(n)]
    hands: dict[int, tuple[str, ...]] = {}
    for seat in order:
        if all(start_supply[t] >= c for t, c in Counter(hand).items()):
            start_supply.subtract(hand)
            hands[seat] = hand
    pile_supply = Counter({t.id: t.draw_pile for t in COMPONENTS.tile_types}) + start_supply
    ordered = [tile.id for tile in COMPONENTS.tile_types for _ in range(pile_supply[tile.id])]
    shuffled, rng = rng.shuffle(ordered)
    pile = list(shuffled)
    for seat in order:
        if seat not in hands:
            hands[seat] = _search(pile, hand)
    return GameSetUp(
        players=tuple(config.players),
        start_seat=config.start_seat,
        rules_version=config.rules_version or RULES_VERSION,
        board_version=BOARD_VERSION,
        lines=tuple(lines[:n]),
        route_cards=tuple(deck[cards[i]].id for i in range(n)),
        routes=tuple(deck[cards[i]].stops[lines[i]] for i in range(n)),
        hands=tuple(hands[seat] for seat in range(n)),
        pile=tuple(pile),
        pile_count=len(pile),
        rng_key=rng.key,
        rng_counter=rng.counter,
        time_control=config.time_control.to_json() if config.time_control.timed else None,
    )
