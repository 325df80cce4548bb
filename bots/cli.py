"""``cablecar bot ...``: the reference client's command line (play whole games
over HTTP, or in process with ``--local``; play one seat of a game).

The client itself (:mod:`bots.client`) stays a dependency-free example; the
planning bots come in here, where the command line picks them by name.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import uuid
from typing import Any

from bots.arena import play
from bots.client import Client, create_game, play_game, play_seat, reach, url_problem
from bots.report import Progress, Tally, final_scores
from bots.strategies import DEFAULT_THINK_MS, UnknownStrategy, parse_strategies, strategy


def _bad_url(command: str, args: argparse.Namespace) -> bool:
    """Say on one line what is wrong with ``--url``, if anything (before any request)."""
    problem = None if getattr(args, "local", False) else url_problem(args.url)
    if problem:
        print(f"cablecar bot {command}: --url {problem}", file=sys.stderr)
    return problem is not None


def _play_cmd(args: argparse.Namespace) -> int:
    if _bad_url("play", args):
        return 2
    try:
        names = parse_strategies(args.strategy, args.players, args.type)
    except UnknownStrategy as e:
        print(f"cablecar bot play: {e}", file=sys.stderr)
        return 2
    if not args.local:
        reach(args.url)  # a dead server said at once, not after each request's retries
    client = Client(args.url)
    rng = random.Random(args.seed)
    tally = Tally()
    progress = Progress(args.games)
    # mcts spends --think-ms searching (default 50); the other bots wait that long before moving
    budget = args.think_ms or DEFAULT_THINK_MS
    waits = [0 if name == "mcts" else args.think_ms for name in names]
    for n in range(args.games):
        seed = f"{args.seed}-{n}" if args.seed is not None else None
        strategies = [strategy(name, args.type, budget) for name in names]
        if args.local:
            record = play(args.type, list(zip(names, strategies, strict=True)), seed or uuid.uuid4().hex, rng)
            line = {"game": n + 1, "strategies": names, "winners": list(record.winners),
                    "reason": record.reason, "scores": list(record.scores), "moves": record.moves}
            tally.add(names, record.winners, record.scores)
        else:
            seats = [f"{name}-{i + 1}" for i, name in enumerate(names)]
            run = create_game(client, args.type, seats, seed, _time_control(args))
            view = play_game(client, run, strategies, rng, think_ms=waits)
            result = view.get("result") or {}
            scores = final_scores(view)
            line = {"game": run.game_id, "strategies": names, "actions": run.actions_sent,
                    "conflicts": run.conflicts, "winners": result.get("winners"),
                    "reason": result.get("reason"), "scores": scores}
            tally.add(names, result.get("winners") or [], scores)
        progress.clear()
        print(json.dumps(line), flush=True)
        progress.update(n + 1, f"last: {line['reason']}")
    progress.clear()
    print(tally.table())
    return 0


def _seat_cmd(args: argparse.Namespace) -> int:
    if _bad_url("seat", args):
        return 2
    reach(args.url)
    client = Client(args.url)
    game = client.request("GET", f"/v1/games/{args.game}", token=args.token)
    try:
        chosen = strategy(args.strategy, game["type"], args.think_ms or DEFAULT_THINK_MS)
    except UnknownStrategy as e:
        print(f"cablecar bot seat: {e}", file=sys.stderr)
        return 2
    view = play_seat(client, args.game, args.token, chosen, random.Random(args.seed),
                     think_ms=0 if args.strategy == "mcts" else args.think_ms)
    print(json.dumps({"game": args.game, "status": view["status"], "result": view.get("result")}))
    return 0


def _game_types() -> list[str]:
    # The types this installation knows (a server of the same version plays them).
    from domain.registry import all_games

    return sorted(g.type_id for g in all_games())


def _time_control(args: argparse.Namespace) -> dict[str, Any] | None:
    if args.per_turn is not None:
        return {"kind": "per_turn", "seconds": args.per_turn}
    if args.clock is not None:
        return {"kind": "clock", "initial_seconds": args.clock[0], "increment_seconds": args.clock[1]}
    return None


def _whole(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
    return value


def _not_negative(text: str) -> int:
    return _whole(text, 0)


def _positive(text: str) -> int:
    return _whole(text, 1)


def _clock(text: str) -> tuple[int, int]:
    """``INITIAL[+INCREMENT]`` in seconds, e.g. ``300+5``."""
    initial, _, increment = text.partition("+")
    return _positive(initial), _not_negative(increment or "0")


def add_parser(sub: Any) -> None:
    """Add ``cablecar bot ...`` to the CLI."""
    bot = sub.add_parser("bot", help="reference client: bots playing over HTTP")
    bot_sub = bot.add_subparsers(dest="bot_command", required=True, metavar="COMMAND")
    play = bot_sub.add_parser("play", help="create games and play every seat until they end")
    play.add_argument("--url", default="http://127.0.0.1:8000", help="base URL of the server")
    play.add_argument("--type", default="ttr-sf", choices=_game_types(), help="game type")
    play.add_argument("--players", type=_positive, default=2, help="seats per game")
    play.add_argument("--games", type=_positive, default=1, help="games to play, one after the other")
    play.add_argument("--strategy", default="planner",
                      help="how the bots choose, one per seat, comma-separated (random, greedy, planner, mcts); "
                           "a shorter list repeats round the table")
    play.add_argument("--seed", default=None, help="seed of the games and the bots' choices (default: random)")
    play.add_argument("--think-ms", type=_not_negative, default=0,
                      help="milliseconds each bot thinks before a move (never past its clock); "
                           f"mcts searches that long, or {DEFAULT_THINK_MS} ms when it is 0")
    play.add_argument("--local", action="store_true",
                      help="play in this process through the rules (no server, nothing stored)")
    timing = play.add_mutually_exclusive_group()
    timing.add_argument("--per-turn", type=_positive, default=None, metavar="SECONDS",
                        help="create the games with a per-turn deadline of SECONDS")
    timing.add_argument("--clock", type=_clock, default=None, metavar="INITIAL[+INCREMENT]",
                        help="create the games with a chess clock per seat, e.g. 300+5 (seconds)")
    play.set_defaults(func=_play_cmd)
    seat = bot_sub.add_parser("seat", help="play one seat of an existing game")
    seat.add_argument("--url", default="http://127.0.0.1:8000", help="base URL of the server")
    seat.add_argument("--game", required=True, help="the game's id")
    seat.add_argument("--token", required=True, help="the seat's token (st_...)")
    seat.add_argument("--strategy", default="greedy", help="how the bot chooses: random, greedy, planner or mcts (ttr-sf)")
    seat.add_argument("--seed", default=None, help="seed of the bot's choices (default: random)")
    seat.add_argument("--think-ms", type=_not_negative, default=0,
                      help="milliseconds the bot thinks before a move (never past its clock)")
    seat.set_defaults(func=_seat_cmd)
