"""The cluster run's verdicts must be able to say "problem": an acknowledged
action missing from the log, acknowledged at another version, a stream that
skipped or repeated an event."""

from __future__ import annotations

import threading
from pathlib import Path

from bench.cluster.clients import GamePlay, Spectator
from bench.cluster.verify import Verdict, check_games, check_streams
from events.sqlite import SqliteStore
from events.store import NewEvent


def _store(tmp_path: Path) -> SqliteStore:
    store = SqliteStore(tmp_path / "log.sqlite3")
    store.create_game("g1", "test-game", {}, [NewEvent("set_up", {})], "playing")
    store.append("g1", 1, [NewEvent("tick", {"n": 1}, 1, 0)], idempotency_key="k1")
    store.append("g1", 2, [NewEvent("tick", {"n": 2}, 1, 1), NewEvent("tick", {"n": 3}, 1, 1)], idempotency_key="k2")
    return store


def test_a_log_holding_every_acknowledged_action_passes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    verdict = Verdict()
    logs = check_games(store, [GamePlay("g1", ("a", "b"), {"k1": 2, "k2": 4})], verdict)
    assert (verdict.lost, verdict.duplicated, verdict.wrong_version, verdict.gaps) == (0, 0, 0, 0)
    follower = Spectator("127.0.0.1", 9, "g1", threading.Event())
    follower.events = [(1, "set_up"), (2, "tick"), (3, "tick"), (4, "tick")]
    check_streams([follower], logs, verdict)
    assert verdict.streams_matching == 1 and not verdict.problems
    store.close()


def test_lost_and_misplaced_actions_and_bad_streams_are_found(tmp_path: Path) -> None:
    store = _store(tmp_path)
    verdict = Verdict()
    play = GamePlay("g1", ("a", "b"), {"k1": 3, "k2": 4, "k3": 5})
    logs = check_games(store, [play], verdict)
    assert verdict.lost == 1 and verdict.wrong_version == 1
    skipped = Spectator("127.0.0.1", 9, "g1", threading.Event())
    skipped.events = [(1, "set_up"), (3, "tick"), (4, "tick")]
    repeated = Spectator("127.0.0.1", 9, "g1", threading.Event())
    repeated.events = [(1, "set_up"), (2, "tick"), (2, "tick"), (3, "tick"), (4, "tick")]
    check_streams([skipped, repeated], logs, verdict)
    assert verdict.streams == 2 and verdict.streams_matching == 0
    store.close()
