"""Rows per accepted action, before and after a turn's end moved into the move's last event.

    python -m bench.bench_rows                    # 30 games of each type, the tables to stdout
    python -m bench.bench_rows --games 60 --write # and bench/results/ROWS.md
    python -m bench.bench_rows --strategy random  # random legal moves instead of planners

Every event is one row of the ``events`` table, so rows per action is events
per accepted action.  Each game is seeded (``rows/<game>/<i>``, 2-4 seats in
turn) and played through the pure rules by bots that see what a client sees
(:mod:`bots.arena`), move for move under the old rules version
(*before*: ``ttr-sf/2``, ``cable-car/2``, a turn's end is a ``turn_ended``
row) and the current one (*after*: ``/3``) at once: the same deal and the
same choices, so only the recording differs.  Setup rows are counted apart.
"""

from __future__ import annotations

import argparse
import datetime
import random
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from bots.arena import FIRST_PAGE, MAX_MOVES, legal_bodies
from bots.strategies import strategy
from domain.core import GameConfig, replay
from domain.registry import game_definition
from domain.turnends import carries_turn_end

OUT = Path(__file__).resolve().parent / "results" / "ROWS.md"
#: each game with the last rules version that wrote a turn's end as a row of its own
BEFORE = {"ttr-sf": "ttr-sf/2", "cable-car": "cable-car/2"}


@dataclass
class Tally:
    """Accepted actions and the rows they wrote, per action type, under both versions."""

    actions: Counter[str] = field(default_factory=Counter)
    before: Counter[str] = field(default_factory=Counter)
    after: Counter[str] = field(default_factory=Counter)
    setup_before: int = 0
    setup_after: int = 0
    #: under the current rules: which event carried each turn's end, and the turn_ended rows left
    carriers: Counter[str] = field(default_factory=Counter)
    turn_ended_left: int = 0
    games: int = 0


def play_both(game_type: str, seed: str, players: int, strategy_name: str, tally: Tally) -> None:
    """One seeded game under both versions at once, every accepted action counted."""
    game = game_definition(game_type)
    config = GameConfig(tuple(f"p{i}" for i in range(players)), seed)
    opening_after = game.setup(config)
    opening_before = game.setup(replace(config, rules_version=BEFORE[game_type]))
    after, before = replay(game, opening_after), replay(game, opening_before)
    tally.setup_after += len(opening_after)
    tally.setup_before += len(opening_before)
    bots = [strategy(strategy_name, game_type) for _ in range(players)]
    rng = random.Random(seed)
    page = 0 if strategy_name == "planner" else FIRST_PAGE
    for _ in range(MAX_MOVES):
        if game.is_over(after):
            break
        seat = game.active_seats(after)[0]
        body = bots[seat](game.view(after, seat), legal_bodies(game, after, seat, page), rng)
        action = game.parse_action(body)
        made_after, made_before = game.decide(after, seat, action), game.decide(before, seat, action)
        kind = str(body["type"])
        tally.actions[kind] += 1
        tally.after[kind] += len(made_after)
        tally.before[kind] += len(made_before)
        tally.carriers.update(e.TYPE for e in made_after if carries_turn_end(e))
        tally.turn_ended_left += sum(e.TYPE == "turn_ended" for e in made_after)
        after, before = replay(game, made_after, after), replay(game, made_before, before)
    tally.games += 1


def measure(game_type: str, games: int, strategy_name: str) -> Tally:
    tally = Tally()
    for i in range(games):
        play_both(game_type, f"rows/{game_type}/{i}", 2 + i % 3, strategy_name, tally)
    return tally


def table(game_type: str, tally: Tally) -> list[str]:
    """The markdown table of one game type."""
    lines = [
        f"### {game_type} ({tally.games} games; before = `{BEFORE[game_type]}`, after = "
        f"`{game_definition(game_type).rules_version}`)",
        "",
        "| action | accepted | rows before | rows after | rows/action before | rows/action after |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind in sorted(tally.actions, key=lambda k: -tally.actions[k]):
        n, b, a = tally.actions[kind], tally.before[kind], tally.after[kind]
        lines.append(f"| `{kind}` | {n} | {b} | {a} | {b / n:.2f} | {a / n:.2f} |")
    n, b, a = sum(tally.actions.values()), sum(tally.before.values()), sum(tally.after.values())
    lines.append(f"| **every action** | {n} | {b} | {a} | **{b / n:.2f}** | **{a / n:.2f}** |")
    carried = ", ".join(f"`{t}` {c}" for t, c in tally.carriers.most_common())
    lines += [
        "",
        f"Setup rows per game: {tally.setup_before / tally.games:.2f} before, "
        f"{tally.setup_after / tally.games:.2f} after. Turn ends carried by: {carried}; "
        f"`turn_ended` rows left after (automatic passes, forfeits): {tally.turn_ended_left}.",
        "",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games of each type (default 30)")
    parser.add_argument("--strategy", default="planner", choices=["planner", "greedy", "random"])
    parser.add_argument("--only", choices=sorted(BEFORE), help="one game type")
    parser.add_argument("--write", action="store_true", help=f"also write {OUT.relative_to(OUT.parents[2])}")
    args = parser.parse_args(argv)
    command = "python -m bench.bench_rows " + " ".join(argv if argv is not None else sys.argv[1:])
    lines = [
        "# Rows per accepted action",
        "",
        "Written by `bench/bench_rows.py` (see its docstring for the method): every event is one row of",
        "`events`; *before* records a turn's end as a `turn_ended` row of its own, *after* in the move's",
        "last event (`ends_turn: true`).",
        "",
        f"Command: `{command.strip()}`, {datetime.date.today().isoformat()}, strategy `{args.strategy}`.",
        "",
    ]
    for game_type in [args.only] if args.only else sorted(BEFORE):
        lines += table(game_type, measure(game_type, args.games, args.strategy))
    text = "\n".join(lines)
    print(text)
    if args.write:
        OUT.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
