"""The planning bots finish games through the rules, the command line runs them, the ladder's smoke mode."""

from __future__ import annotations

import random

import pytest

from bench import bots as ladder
from bots.arena import play
from bots.strategies import UnknownStrategy, parse_strategies, strategy
from cablecar.cli import main


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_seeded_cable_car_game_of_planners_ends_with_a_winner(players: int) -> None:
    seats = [("planner", strategy("planner", "cable-car")) for _ in range(players)]
    record = play("cable-car", seats, f"bots-{players}", random.Random(players))
    assert record.reason == "destination_reached" and len(record.winners) == 1
    assert record.turns > players  # a real game, not an accident of the deal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_ttr_planner_plays_whole_games_against_greedy(players: int) -> None:
    names = ["planner" if i % 2 == 0 else "greedy" for i in range(players)]
    record = play("ttr-sf", [(n, strategy(n, "ttr-sf")) for n in names], f"ttr-{players}", random.Random(1))
    assert record.reason in ("final_round", "stalemate") and record.winners
    assert all(score is not None for score in record.scores)


def test_strategies_are_named_per_seat() -> None:
    assert parse_strategies("planner,greedy", 3, "ttr-sf") == ["planner", "greedy", "planner"]
    assert parse_strategies("mcts", 2, "ttr-sf") == ["mcts", "mcts"]
    with pytest.raises(UnknownStrategy, match="unknown strategy"):
        parse_strategies("planner,clever", 2, "ttr-sf")
    with pytest.raises(UnknownStrategy, match="ttr-sf only"):
        parse_strategies("mcts", 2, "cable-car")


def test_bot_play_prints_a_line_per_game_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bot", "play", "--local", "--type", "ttr-sf", "--players", "2", "--games", "2",
                 "--strategy", "planner,greedy", "--seed", "cli"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert sum(1 for line in out if line.startswith('{"game"')) == 2
    assert any(line.startswith("planner ") for line in out) and any(line.startswith("greedy ") for line in out)
    assert out[-1].startswith("games: 2 finished with a winner: 2")
    assert main(["bot", "play", "--local", "--type", "cable-car", "--strategy", "mcts"]) == 2


def test_the_ladder_smoke_mode_plays_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder.main(["--smoke", "--only", "ttr-sf", "--think-ms", "10"]) == 0
    text = capsys.readouterr().out
    assert "## Headline" in text and "mcts@10ms vs planner" in text and "planner vs greedy" in text
    rows = [r for r in text.splitlines() if r.startswith("| ttr-sf")]
    assert len(rows) == sum(1 for r in ladder.ROWS if r.game == "ttr-sf")
    low, high = ladder.wilson(7, 10)
    assert 0.39 < low < 0.40 and 0.89 < high < 0.90  # the 95 % Wilson interval of 7/10


def test_the_progress_bar_draws_on_a_terminal_only() -> None:
    import io

    from bots.report import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = Progress(4, screen, width=8)
    bar.update(2, "half")
    bar.clear()
    assert "[####....] 2/4 half" in screen.getvalue() and screen.getvalue().endswith("\r")
    quiet = io.StringIO()
    Progress(4, quiet).update(2)
    assert quiet.getvalue() == ""
