"""Bot runners on every backend: two runner processes on one database play
games of bots to the end, and no bot turn is ever acted on twice (each
logged move is exactly one appended action, and every seat action in the
logs is one of them)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from events import Stores
from service.adapters.cache import InProcessCache
from service.adapters.signing_keys import write_key_file
from service.bootstrap import wire_games
from service.errors import BotsUnavailable
from service.usecases.creation import GameRequest
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import TEST_HASHER, TEST_SIGNER

ROOT = Path(__file__).resolve().parents[2]
MOVED = re.compile(r"moved: game (\S+) seat (\d+) \((\w+)\) version (\d+)")
STOPPED = re.compile(r"stopped: (?P<moves>\d+) moves, (?P<conflicts>\d+) conflicts, (?P<errors>\d+) errors")


def _runner(backend: Backend, tmp_path: Path, name: str) -> subprocess.Popen[str]:
    # the key the test's stores sign with: a runner signs its moves with it and checks the record against it
    key_file = tmp_path / f"{name}-signing-key.json"
    if not key_file.exists():
        write_key_file(key_file, TEST_SIGNER)
    env = {**os.environ, "DATABASE_URL": backend.url, "PYTHONUNBUFFERED": "1",
           "CABLECAR_SIGNING_KEY_FILE": str(key_file)}
    env.pop("REDIS_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "cablecar.cli", "bots", "run", "--batch", "1", "--interval", "0.05", "--verbose",
         "--data-dir", str(tmp_path / name)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _stop(proc: subprocess.Popen[str]) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    return out + err


def _wait_finished(store: Stores, games: list[str], seconds: float,
                   runners: Sequence[subprocess.Popen[str]] = ()) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(store.events.get_game(g).status == "finished" for g in games):
            return
        if runners and all(p.poll() is not None for p in runners):  # all gone: no point waiting
            pytest.fail("every bot runner exited:\n" + "\n".join(_stop(p) for p in runners))
        time.sleep(0.2)
    pytest.fail(f"bot games did not finish in {seconds} s: {[store.events.get_game(g).status for g in games]}")


class BotRunnerContract(Contract):
    """Two runner processes on a database of the test's own, on one backend per subclass."""

    @pytest.fixture
    def own_backend(self, backend: Backend) -> Iterator[Backend]:
        """The backend on a database of this test's own: runners claim every game waiting for a bot in
        their database, and the session's shared one holds other tests' stand-in games (not playable)."""
        with backend.own_database("cc_runners") as own:
            yield own

    def test_two_runner_processes_play_every_bot_turn_once(
        self, own_backend: Backend, tmp_path: Path
    ) -> None:
        backend = own_backend
        store = backend.open()
        _, commands, _ = wire_games(store, InProcessCache(100), TEST_HASHER)
        games = [
            commands.creation.create(GameRequest("ttr-sf", ["Ann", "Bo", "Cy"], seed=f"runners-{i}",
                                                 bots=["greedy", "random", "greedy"]))
            .record.game_id
            for i in range(3)
        ]
        games.append(commands.creation.create(GameRequest("cable-car", ["Di", "Ed"], seed="runners-cc",
                                                          bots=["planner", "greedy"]))
                     .record.game_id)
        runners = [_runner(backend, tmp_path, "a"), _runner(backend, tmp_path, "b")]
        try:
            _wait_finished(store, games, 240, runners)
        finally:
            logs = [_stop(p) for p in runners]
        moves = [[m.groups() for m in MOVED.finditer(log)] for log in logs]
        assert all(moves), f"each runner played some turns: {[len(m) for m in moves]}\n{logs}"
        stopped = [STOPPED.search(log) for log in logs]
        assert all(stopped), logs
        # No errors. A conflict (a move refused as stale, then looked at again) is allowed: on a starved machine a
        # lease can lapse mid-decision and the other runner move first; what must hold is checked next: no turn
        # decided twice, and every event a seat authored comes from one logged move.
        errors = [line for log in logs for line in log.splitlines() if "Error" in line or "ERROR" in line]
        assert [int(m.group("errors")) for m in stopped if m] == [0, 0], ([m.group(0) for m in stopped if m], errors[:12])
        decided = [(g, int(seat), int(version)) for mine in moves for g, seat, _, version in mine]
        assert len(decided) == len({(g, v) for g, _, v in decided}), "a turn was decided twice"
        for game_id in games:
            mine = sorted((v, seat) for g, seat, v in decided if g == game_id)
            # every event a seat authored comes from one logged move, appended once
            authored = [e.seq for e in store.events.load(game_id) if e.seat is not None]
            from_moves: list[int] = []
            for version, seat in mine:
                written = store.events.lookup_idempotency(game_id, f"{seat}:bot-{seat}-{version}")  # action keys are per seat
                assert written is not None and written.events[0].seq == version + 1
                assert all(e.seat == seat for e in written.events)
                from_moves += [e.seq for e in written.events]
            assert from_moves == authored, game_id

    def test_a_runner_started_as_the_readme_says_makes_bot_seats_accepted_and_plays_them(
        self, own_backend: Backend, tmp_path: Path
    ) -> None:
        """Issue 36: the server refuses a bot seat while no runner lives; `cablecar bots run` (README, step 5)
        beats its heartbeat, the same creation is then accepted, and the game is played to the end."""
        store = own_backend.open()
        # a bot seat no runner would play is refused, as the server wires it
        _, commands, _ = wire_games(store, InProcessCache(100), TEST_HASHER, require_runner=True)
        bot_turns = commands.creation.bot_turns
        assert bot_turns is not None
        request = GameRequest("ttr-sf", ["Ann", "Bo"], seed="readme-runner", bots=["greedy", "random"],
                              address="203.0.113.9")
        with pytest.raises(BotsUnavailable):
            commands.creation.create(request)
        assert not store.events.list_games(None, None, None, 10, None).games  # nothing written
        key_file = tmp_path / "signing-key.json"
        write_key_file(key_file, TEST_SIGNER)
        env = {**os.environ, "DATABASE_URL": own_backend.url, "CABLECAR_SIGNING_KEY_FILE": str(key_file),
               "PYTHONUNBUFFERED": "1"}
        env.pop("REDIS_URL", None)
        runner = subprocess.Popen([sys.executable, "-m", "cablecar.cli", "bots", "run", "--data-dir",
                                   str(tmp_path / "data")], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while bot_turns.live_runners() == 0:
                assert runner.poll() is None and time.monotonic() < deadline, _stop(runner)
                time.sleep(0.1)
            game = commands.creation.create(request).record.game_id
            _wait_finished(store, [game], 240, [runner])
        finally:
            log = _stop(runner)
        assert "games at once" in log, log
        assert bot_turns.live_runners() == 0, "a stopped runner ends its heartbeat"


class TestBotRunnerSqlite(BotRunnerContract):
    backend_type = SqliteBackend


class TestBotRunnerPostgres(BotRunnerContract):
    backend_type = PostgresBackend
